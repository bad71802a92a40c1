// The back office's API: a staff session only from a fresh, two-factor sign-in of the staff pool; every call
// authorised by role and audited with the member; the queue against the review target; one application as the
// reviewer reads it; decisions through the review's services, four eyes on high risk, and two staff deciding at once.
import { createHash } from 'node:crypto';
import { describeEachDialect } from '../helpers';
import { signIn, startLoginServerOn } from '../login/loginServer';
import { staffSessionRepository } from '../../../server/repositories/staffSessionRepository';
import { applicationView } from '../../../server/services/onboardingApplications';
import { approveApplication } from '../../../server/services/reviews';
import { consentAndSign, readyToSign } from '../onboarding/signing';
import { enrolledSignIn, enrolledSignInTokens, newStaffMember, nextDni, signedInStaff, staffCall, startStaffSession } from './staff';

jest.setTimeout(120_000);


describeEachDialect('the back office API', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    // Many sign-ins and calls from one address in a minute: more than the default limit lets through.
    server = await startLoginServerOn(dialect, { RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.clock.offsetMs = 0;
  });

  /** A freelancer's application signed through the real calls, pending review; high risk when said. */
  async function signed(options: { language?: 'es' | 'en'; identityCheck?: 'approved' | 'needs-review'; highRisk?: boolean; nationality?: string } = {}) {
    const dni = nextDni();
    const nationality = options.nationality ?? 'ES';
    const { id, token } = await readyToSign(server, dni, {
      language: options.language,
      identityCheck: options.identityCheck,
      answers: options.highRisk ? { politicalPosition: true, nationality } : { nationality },
    });
    expect((await consentAndSign(server, token)).status).toBe(200);
    const application = (await server.app.applications.find(id))!;
    // The risk as the steps' saves work it out.
    await server.app.applications.save(application, { riskfactor: options.highRisk ? 'high' : 'low' }, new Date());
    return { id, token, dni, email: application.email };
  }
  const auditOf = async (id: string) => server.app.db.selectFrom('audit_log').selectAll().where('subject', '=', `application:${id}`).orderBy('id').execute();

  describe('sessions', () => {
    it("tells the page which pool to sign in to, the staff pool's and not the customers'", async () => {
      const answer = await fetch(`${server.base}/staff-api/config`);
      expect(await answer.json()).toEqual({
        region: server.config.identity.region,
        userPoolId: server.config.staff!.userPoolId,
        clientId: server.config.staff!.clientId,
        endpoint: server.config.identity.endpoint,
        idleSeconds: 900,
        warningSeconds: server.config.sessionWarningSeconds,
      });
      expect(server.config.staff!.userPoolId).not.toBe(server.config.identity.userPoolId);
    });

    it('starts from a fresh two-factor sign-in of the staff pool, once per sign-in, in an HttpOnly cookie for the staff API only', async () => {
      const username = await newStaffMember(server, ['reviewer']);
      const idToken = await enrolledSignIn(server, username);
      const started = await startStaffSession(server, idToken);
      expect(started.status).toBe(201);
      expect(started.body).toMatchObject({ username, roles: ['reviewer'], idleSeconds: 900 });
      expect(started.setCookie).toMatch(/HttpOnly/i);
      expect(started.setCookie).toMatch(/Secure/i);
      expect(started.setCookie).toMatch(/SameSite=Strict/i);
      expect(started.setCookie).toMatch(/Path=\/staff-api/);
      expect((await staffCall(server, started.cookie!, 'GET', '/session')).body).toMatchObject({ username, roles: ['reviewer'] });
      // The same sign-in again (a token copied from the browser) starts nothing.
      const again = await startStaffSession(server, idToken);
      expect(again).toMatchObject({ status: 409, body: { code: 'SIGN_IN_USED' } });
      const started_ = await server.app.db.selectFrom('audit_log').select(['actor', 'action']).where('subject', '=', `staff:${username}`).execute();
      expect(started_).toEqual([{ actor: `staff:${username}`, action: 'backoffice.session_started' }]);
    });

    it('a sign-in renewed with its refresh token is the same sign-in: it starts no second session', async () => {
      const username = await newStaffMember(server, ['approver']);
      const staff = server.config.staff!;
      const signedIn = await enrolledSignInTokens(server, username);
      expect((await startStaffSession(server, signedIn.IdToken)).status).toBe(201);
      const renewed = await fetch(server.config.identity.endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
        body: JSON.stringify({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: staff.clientId, AuthParameters: { REFRESH_TOKEN: signedIn.RefreshToken } }),
      });
      const { IdToken } = ((await renewed.json()) as { AuthenticationResult: { IdToken: string } }).AuthenticationResult;
      expect(IdToken).not.toBe(signedIn.IdToken);
      expect(await startStaffSession(server, IdToken)).toMatchObject({ status: 409, body: { code: 'SIGN_IN_USED' } });
      expect(await server.app.db.selectFrom('staff_sessions').select('username').where('username', '=', username).execute()).toHaveLength(1);
    });

    it("refuses a customer's sign-in, a sign-in older than five minutes and a member without a role", async () => {
      // A customer of the demo data signs in to the customers' pool: their token is not the staff pool's.
      const customer = await signIn(server.base, '12345678Z', 'Divilo-Demo-2026');
      expect(await startStaffSession(server, customer)).toMatchObject({ status: 401, body: { code: 'INVALID_TOKEN' } });
      expect(await startStaffSession(server, 'not.a.token')).toMatchObject({ status: 401, body: { code: 'INVALID_TOKEN' } });

      const late = await enrolledSignIn(server, await newStaffMember(server, ['approver']));
      server.clock.offsetMs = 301_000;
      expect(await startStaffSession(server, late)).toMatchObject({ status: 401, body: { code: 'SIGN_IN_NOT_FRESH' } });
      server.clock.offsetMs = 0;

      const nobody = await newStaffMember(server, []);
      expect(await startStaffSession(server, await enrolledSignIn(server, nobody))).toMatchObject({ status: 403, body: { code: 'NO_ROLE' } });
      expect(await server.app.db.selectFrom('audit_log').select('action').where('subject', '=', `staff:${nobody}`).execute()).toEqual([{ action: 'backoffice.refused' }]);
    });

    it('ends after fifteen minutes unused, lives on while used, and ends when the member signs out', async () => {
      const { cookie } = await signedInStaff(server, ['reviewer']);
      server.clock.offsetMs = 14 * 60_000;
      expect((await staffCall(server, cookie, 'GET', '/session')).status).toBe(200);
      server.clock.offsetMs = 28 * 60_000;
      expect((await staffCall(server, cookie, 'GET', '/session')).status).toBe(200);
      server.clock.offsetMs = 43 * 60_000 + 1000;
      expect(await staffCall(server, cookie, 'GET', '/session')).toMatchObject({ status: 401, body: { code: 'NO_STAFF_SESSION' } });

      server.clock.offsetMs = 0;
      const other = await signedInStaff(server, ['reviewer']);
      expect((await staffCall(server, other.cookie, 'DELETE', '/session')).status).toBe(204);
      expect(await staffCall(server, other.cookie, 'GET', '/applications')).toMatchObject({ status: 401, body: { code: 'NO_STAFF_SESSION' } });
      expect((await fetch(`${server.base}/staff-api/applications`)).status).toBe(401);
    });
  });

  describe('a member disabled or given other roles', () => {
    it('loses every session at once (they are read at sign-in)', async () => {
      const member = await signedInStaff(server, ['reviewer']);
      const username = member.username;
      const second = await startStaffSession(server, await enrolledSignIn(server, await newStaffMember(server, ['reviewer'])));
      expect(await staffSessionRepository(server.app.db).revokeAllOf(username, server.app.clock())).toBe(1);
      expect(await staffCall(server, member.cookie, 'GET', '/session')).toMatchObject({ status: 401, body: { code: 'NO_STAFF_SESSION' } });
      expect((await staffCall(server, second.cookie!, 'GET', '/session')).status).toBe(200);
    });
  });

  describe('roles', () => {
    it('lets only approvers approve and only administrators edit templates; keeps administrators out of applicants; audits every refusal', async () => {
      const { id } = await signed();
      const reviewer = await signedInStaff(server, ['reviewer']);
      const administrator = await signedInStaff(server, ['administrator']);
      expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 403, body: { code: 'ROLE_REQUIRED' } });
      expect(await staffCall(server, administrator.cookie, 'GET', `/applications/${id}`)).toMatchObject({ status: 403, body: { code: 'ROLE_REQUIRED' } });
      expect(await staffCall(server, administrator.cookie, 'GET', '/applications')).toMatchObject({ status: 403 });
      const template = { kind: 'rejection', title: { es: 'Fuera de plazo', en: 'Too late' }, body: { es: 'Ha pasado el plazo.', en: 'The time is over.' } };
      expect(await staffCall(server, reviewer.cookie, 'PUT', '/templates/too-late', template)).toMatchObject({ status: 403 });
      expect((await server.app.applications.find(id))!.status).toBe('pending-review');
      const refusals = await server.app.db.selectFrom('audit_log').select(['actor', 'details']).where('action', '=', 'backoffice.refused').where('actor', 'in', [`staff:${reviewer.username}`, `staff:${administrator.username}`]).execute();
      expect(refusals).toHaveLength(4);

      const approver = await signedInStaff(server, ['approver']);
      expect(await staffCall(server, approver.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'approved', awaitingSecondApproval: false } });
      const decision = (await auditOf(id)).find((entry) => entry.action === 'onboarding.review_approved');
      expect(decision?.actor).toBe(`staff:${approver.username}`);
    });

    it('has administrators write templates in both languages, never changing their kind', async () => {
      const administrator = await signedInStaff(server, ['administrator']);
      const template = { kind: 'rejection', title: { es: 'Fuera de plazo', en: 'Too late' }, body: { es: 'Ha pasado el plazo.', en: 'The time is over.' } };
      expect(await staffCall(server, administrator.cookie, 'PUT', `/templates/too-late-${dialect}`, template)).toMatchObject({ status: 201, body: { id: `too-late-${dialect}`, retired: false } });
      const changed = await staffCall(server, administrator.cookie, 'PUT', `/templates/too-late-${dialect}`, { ...template, body: { es: 'Plazo cerrado.', en: 'Closed.' } });
      expect(changed).toMatchObject({ status: 200, body: { body: { es: 'Plazo cerrado.', en: 'Closed.' }, updatedBy: `staff:${administrator.username}` } });
      expect(await staffCall(server, administrator.cookie, 'PUT', `/templates/too-late-${dialect}`, { ...template, kind: 'more-info' })).toMatchObject({ status: 409, body: { code: 'TEMPLATE_KIND_DIFFERS' } });
      expect(await staffCall(server, administrator.cookie, 'PUT', '/templates/x', { ...template, body: { es: '', en: 'x' } })).toMatchObject({ status: 400 });
    });
  });

  describe('the queue and the application page', () => {
    it('lists what waits for the bank, the longest waiting first, against the target, with what each member can do', async () => {
      const first = await signed();
      // Signed two days ago: past the 48 hours the bank aims at.
      await server.app.db.updateTable('onboarding_contracts').set({ signed_at: new Date(Date.now() - 49 * 3_600_000).toISOString() }).where('application_id', '=', first.id).execute();
      const photos = await readyToSign(server, nextDni(), { identityCheck: 'needs-review' });
      const approver = await signedInStaff(server, ['approver']);
      const reviewer = await signedInStaff(server, ['reviewer']);
      const queue = await staffCall(server, approver.cookie, 'GET', '/applications');
      expect(queue.status).toBe(200);
      expect(queue.body.targetHours).toBe(48);
      const entries = queue.body.applications as { id: string; awaiting: string; overTarget: boolean; waitedHours: number; canAct: boolean; name: string }[];
      const mine = entries.find((entry) => entry.id === first.id)!;
      expect(mine).toMatchObject({ awaiting: 'decision', overTarget: true, canAct: true, name: 'José Núñez García' });
      expect(mine.waitedHours).toBeGreaterThanOrEqual(48.9);
      expect(entries.find((entry) => entry.id === photos.id)).toMatchObject({ awaiting: 'identity-review', canAct: true });
      const waits = entries.map((entry) => entry.waitedHours);
      expect(waits).toEqual([...waits].sort((a, b) => b - a));

      // A reviewer cannot decide; "waiting for me" shows them the photos only.
      const reviewersOwn = (await staffCall(server, reviewer.cookie, 'GET', '/applications?mine=true')).body.applications as { id: string; awaiting: string }[];
      expect(reviewersOwn.every((entry) => entry.awaiting === 'identity-review')).toBe(true);
      expect(reviewersOwn.map((entry) => entry.id)).toContain(photos.id);
      const decisions = (await staffCall(server, approver.cookie, 'GET', '/applications?awaiting=decision&risk=low&path=freelance&minWaitHours=48')).body.applications as { id: string }[];
      expect(decisions.map((entry) => entry.id)).toContain(first.id);
      expect(decisions.map((entry) => entry.id)).not.toContain(photos.id);
      expect(await staffCall(server, approver.cookie, 'GET', '/applications?risk=extreme')).toMatchObject({ status: 400 });
    });

    it('shows one application step by step with the labels the applicant saw, its risk with every reason and source, its contract; and audits the reading', async () => {
      const { id } = await signed({ highRisk: true });
      const reviewer = await signedInStaff(server, ['reviewer']);
      const page = await staffCall(server, reviewer.cookie, 'GET', `/applications/${id}`);
      expect(page.status).toBe(200);
      const steps = page.body.steps as { step: string; fields: { field: string; label: string; value: unknown }[] }[];
      expect(steps[0]).toMatchObject({ step: 'personal-info' });
      expect(steps[0].fields).toContainEqual({ field: 'firstName', label: 'onboarding.personal-info.firstName', value: 'José' });
      expect(steps.map((step) => step.step)).toEqual(expect.arrayContaining(['your-activity', 'fiscal-address', 'tell-us-more-freelance']));
      expect(page.body.risk).toEqual({
        level: 'high',
        fourEyes: true,
        reasons: [{ kind: 'politically-exposed', field: 'politicalPosition', value: true, level: 'high', source: 'Divilo customer acceptance policy' }],
      });
      expect(page.body.contract).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(page.body.review).toMatchObject({ awaiting: 'decision', canAct: false });
      expect(page.body.identityCheck).toMatchObject({ status: 'approved' });
      expect(await staffCall(server, reviewer.cookie, 'GET', `/applications/00000000-0000-4000-8000-000000000000`)).toMatchObject({ status: 404, body: { code: 'APPLICATION_NOT_FOUND' } });

      const contract = await staffCall(server, reviewer.cookie, 'GET', `/applications/${id}/contract`);
      expect(contract.type).toBe('application/pdf');
      expect(createHash('sha256').update(contract.bytes).digest('hex')).toBe((page.body.contract as { sha256: string }).sha256);
      const reads = (await auditOf(id)).filter((entry) => entry.actor === `staff:${reviewer.username}`).map((entry) => entry.action);
      expect(reads).toEqual(['backoffice.application_viewed', 'backoffice.contract_viewed']);
    });

    it('refuses to serve a contract that no longer has its recorded SHA-256', async () => {
      const { id } = await signed();
      const reviewer = await signedInStaff(server, ['reviewer']);
      const pdf = (await server.app.contracts.pdf(id))!;
      await server.app.db.updateTable('onboarding_contracts').set({ pdf: Buffer.concat([pdf, Buffer.from('%tampered')]) }).where('application_id', '=', id).execute();
      expect(await staffCall(server, reviewer.cookie, 'GET', `/applications/${id}/contract`)).toMatchObject({ status: 409, body: { code: 'EVIDENCE_CHANGED' } });
    });

    it('keeps internal notes in the audit trail, out of what the applicant sees', async () => {
      const { id } = await signed();
      const reviewer = await signedInStaff(server, ['reviewer']);
      expect((await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/notes`, { text: 'Called the applicant: the activity is real.' })).status).toBe(204);
      const audit = (await staffCall(server, reviewer.cookie, 'GET', `/applications/${id}`)).body.audit as { action: string; actor: string; details?: { note?: string } }[];
      expect(audit).toContainEqual(expect.objectContaining({ action: 'onboarding.review_note', actor: `staff:${reviewer.username}`, details: { note: 'Called the applicant: the activity is real.' } }));
      expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/notes`, { text: '' })).toMatchObject({ status: 400 });
      expect(JSON.stringify(applicationView((await server.app.applications.find(id))!))).not.toContain('Called the applicant');
    });
  });

  describe('the funnel', () => {
    it('counts the period asked (whole days, both ends included) for every role, with nothing personal in it', async () => {
      const { email, dni } = await signed();
      const administrator = await signedInStaff(server, ['administrator']);
      const today = new Date().toISOString().slice(0, 10);
      const funnel = await staffCall(server, administrator.cookie, 'GET', `/funnel?from=${today}&to=${today}&path=freelance`);
      expect(funnel.status).toBe(200);
      expect(funnel.body).toMatchObject({ path: 'freelance', from: `${today}T00:00:00.000Z` });
      expect((funnel.body.steps as { step: string }[]).map((step) => step.step)).toContain('your-activity');
      expect(funnel.bytes.toString()).not.toContain(email);
      expect(funnel.bytes.toString()).not.toContain(dni);
      expect(await staffCall(server, administrator.cookie, 'GET', `/funnel?from=${today}&to=2000-01-01`)).toMatchObject({ status: 400, body: { code: 'INVALID_PERIOD' } });
      expect(await staffCall(server, administrator.cookie, 'GET', '/funnel?from=2020-01-01&to=2026-01-01')).toMatchObject({ status: 400, body: { code: 'INVALID_PERIOD' } });
      expect(await staffCall(server, administrator.cookie, 'GET', '/funnel?from=yesterday&to=today')).toMatchObject({ status: 400 });
    });
  });

  describe('decisions', () => {
    it('needs two different approvers for a high-risk application: the first approval waits, the same approver again is refused, the second decides', async () => {
      const { id } = await signed({ highRisk: true });
      const [first, second] = [await signedInStaff(server, ['approver']), await signedInStaff(server, ['approver'])];
      expect(await staffCall(server, first.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'pending-review', awaitingSecondApproval: true } });
      expect(await staffCall(server, first.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 409, body: { code: 'SECOND_APPROVER_NEEDED' } });
      const queue = (await staffCall(server, second.cookie, 'GET', '/applications?awaiting=second-approval')).body.applications as { id: string; canAct: boolean }[];
      expect(queue.find((entry) => entry.id === id)).toMatchObject({ canAct: true });
      const firstsQueue = (await staffCall(server, first.cookie, 'GET', '/applications?mine=true')).body.applications as { id: string }[];
      expect(firstsQueue.map((entry) => entry.id)).not.toContain(id);
      expect(await staffCall(server, second.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'approved' } });
      const decisions = (await auditOf(id)).filter((entry) => entry.action.startsWith('onboarding.review_'));
      expect(decisions.map((entry) => [entry.action, entry.actor])).toEqual([
        ['onboarding.review_first_approval', `staff:${first.username}`],
        ['onboarding.review_approved', `staff:${second.username}`],
      ]);
      expect(JSON.parse(decisions[1].details!)).toEqual({ approvers: [`staff:${first.username}`, `staff:${second.username}`] });
    });

    it('needs two approvers for an application high risk under the lists as they are now, though saved as low', async () => {
      // Saved low (as before its country was listed): its nationality is on the FATF call for action now.
      const { id } = await signed({ nationality: 'KP' });
      expect((await server.app.applications.find(id))!.riskfactor).toBe('low');
      const [first, second] = [await signedInStaff(server, ['approver']), await signedInStaff(server, ['approver'])];
      const page = await staffCall(server, first.cookie, 'GET', `/applications/${id}`);
      expect(page.body).toMatchObject({ risk: { fourEyes: true, reasons: [expect.objectContaining({ kind: 'fatf-call-for-action', value: 'KP' })] } });
      expect(await staffCall(server, first.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'pending-review', awaitingSecondApproval: true } });
      const queue = (await staffCall(server, second.cookie, 'GET', '/applications?awaiting=second-approval')).body.applications as { id: string }[];
      expect(queue.map((entry) => entry.id)).toContain(id);
      expect(await staffCall(server, second.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'approved' } });
    });

    it('counts an approver once whichever way they approve: the command line under their name, then the back office', async () => {
      const { id } = await signed({ highRisk: true });
      const member = await signedInStaff(server, ['approver']);
      // The command line records `reviewer:<name>`; the same name in another case, or typed with the back office's
      // prefix, is the same person.
      expect(await approveApplication(server.app.reviewDependencies, id, member.username.toUpperCase(), new Date())).toMatchObject({ awaitingSecondApproval: true });
      await expect(approveApplication(server.app.reviewDependencies, id, `staff:${member.username}`, new Date())).rejects.toMatchObject({ code: 'SECOND_APPROVER_NEEDED' });
      const queue = (await staffCall(server, member.cookie, 'GET', '/applications?awaiting=second-approval')).body.applications as { id: string; canAct: boolean }[];
      expect(queue.find((entry) => entry.id === id)).toMatchObject({ canAct: false });
      expect(await staffCall(server, member.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 409, body: { code: 'SECOND_APPROVER_NEEDED' } });
      expect((await server.app.applications.find(id))!.status).toBe('pending-review');
      const other = await signedInStaff(server, ['approver']);
      expect(await staffCall(server, other.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'approved' } });
    });

    it('rejects with a template: the applicant reads its words in their language, the reason stays with the bank', async () => {
      const { id, email } = await signed({ language: 'en' });
      const reviewer = await signedInStaff(server, ['reviewer']);
      expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/reject`, { reason: 'x', templateId: 'no-such-template' })).toMatchObject({ status: 400, body: { code: 'TEMPLATE_NOT_FOUND' } });
      expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/reject`, { reason: 'Shell company suspected', templateId: 'risk-policy' })).toMatchObject({ status: 200, body: { status: 'rejected' } });
      const notice = await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', email).where('purpose', '=', 'notice').executeTakeFirstOrThrow();
      expect(notice.text).toContain('Your application does not meet our customer acceptance policy.');
      expect(notice.text).not.toContain('Shell company');
      const rejected = (await auditOf(id)).find((entry) => entry.action === 'onboarding.review_rejected')!;
      expect(JSON.parse(rejected.details!)).toEqual({ reason: 'Shell company suspected', template: 'risk-policy' });
      // What the applicant's own calls show of the application leaves the review's record out.
      const rejectedApplication = (await server.app.applications.find(id))!;
      expect(rejectedApplication.answers.review).toEqual({ rejection: { templateId: 'risk-policy', text: 'Your application does not meet our customer acceptance policy.' } });
      expect(applicationView(rejectedApplication).answers).not.toHaveProperty('review');
    });

    it('lets only one of two staff acting at once decide: an approval and a rejection fired together', async () => {
      const { id } = await signed();
      const [approver, reviewer] = [await signedInStaff(server, ['approver']), await signedInStaff(server, ['reviewer'])];
      const answers = await Promise.all([
        staffCall(server, approver.cookie, 'POST', `/applications/${id}/approve`),
        staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/reject`, { reason: 'Documents do not match' }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('ALREADY_DECIDED');
      const winner = answers.find((answer) => answer.status === 200)!.body.status;
      expect((await server.app.applications.find(id))!.status).toBe(winner);
      const decisions = (await auditOf(id)).filter((entry) => entry.action === 'onboarding.review_approved' || entry.action === 'onboarding.review_rejected');
      expect(decisions).toHaveLength(1);
      const effects = await server.app.db.selectFrom('review_effects').select('decision').where('application_id', '=', id).execute();
      expect(new Set(effects.map((effect) => effect.decision))).toEqual(new Set([winner]));
    });

    it('lets two approvers approving a high-risk application at once make one decision with both, and refuses a double click', async () => {
      const { id } = await signed({ highRisk: true });
      const [first, second] = [await signedInStaff(server, ['approver']), await signedInStaff(server, ['approver'])];
      const answers = await Promise.all([
        staffCall(server, first.cookie, 'POST', `/applications/${id}/approve`),
        staffCall(server, second.cookie, 'POST', `/applications/${id}/approve`),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      expect((await server.app.applications.find(id))!.status).toBe('approved');
      const decisions = (await auditOf(id)).filter((entry) => entry.action.startsWith('onboarding.review_')).map((entry) => entry.action);
      expect(decisions).toEqual(['onboarding.review_first_approval', 'onboarding.review_approved']);

      const other = await signed({ highRisk: true });
      const clicks = await Promise.all([1, 2].map(() => staffCall(server, first.cookie, 'POST', `/applications/${other.id}/approve`)));
      expect(clicks.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(clicks.find((answer) => answer.status === 409)!.body.code).toBe('SECOND_APPROVER_NEEDED');
      expect((await server.app.applications.find(other.id))!.status).toBe('pending-review');
    });

    it("decides an identity check waiting for the photos' review", async () => {
      const { id } = await readyToSign(server, nextDni(), { identityCheck: 'needs-review' });
      const reviewer = await signedInStaff(server, ['reviewer']);
      expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/identity`, { decision: 'reject' })).toMatchObject({ status: 400, body: { code: 'REASON_REQUIRED' } });
      expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/identity`, { decision: 'approve' })).toMatchObject({ status: 200, body: { status: 'in-progress', identityCheck: 'approved' } });
      expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/identity`, { decision: 'approve' })).toMatchObject({ status: 409, body: { code: 'NOT_DECIDABLE' } });
      const check = (await server.app.applications.find(id))!.answers.identityCheck as { reviewer: string };
      expect(check.reviewer).toBe(reviewer.username);
    });
  });
});
