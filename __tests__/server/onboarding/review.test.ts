// The bank's review (npm run admin): only a signed application can be approved; approve lets the customer log
// in and tells them; reject records why. A decision whose effects fail (the user pool unreachable) stays recorded
// with them pending, and the next run of the same decision, or housekeeping, finishes them once.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { adminProgram } from '../../../scripts/admin';
import { reviewEffectRepository } from '../../../server/repositories/reviewEffectRepository';
import {
  approveApplication,
  decideIdentity,
  EFFECT_CLAIM_SECONDS,
  finishPendingDecisions,
  listApplications,
  pendingEffects,
  rejectApplication,
  type ReviewDependencies,
} from '../../../server/services/reviews';
import { describeEachDialect } from '../helpers';
import { signIn, startLoginServerOn } from '../login/loginServer';
import { consentAndSign, readyToSign, setPasswordOf, signUpAndConfirm } from './signing';
import { reviewDependenciesOf } from './reviewDependencies';

describeEachDialect('onboarding: the review', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  let deps: ReturnType<typeof reviewDependenciesOf>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
    deps = reviewDependenciesOf(server);
  });
  afterAll(() => server.close());

  /** An application signed through the contract calls: pending review (its identity approved, unless said). */
  async function signed(idDocument: string, language: 'es' | 'en' = 'es', identityCheck: 'approved' | 'needs-review' = 'approved') {
    const { id, token } = await readyToSign(server, idDocument, { language, identityCheck });
    expect((await consentAndSign(server, token)).status).toBe(200);
    return (await server.app.applications.find(id))!;
  }
  const noticesTo = async (to: string) => (await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', to).where('purpose', '=', 'notice').execute()).length;
  const lastEmail = async (to: string) => (await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow()).text;

  const admin = (lines: string[] = [], with_: Partial<ReviewDependencies> = {}) => adminProgram(async () => ({ ...deps, ...with_, close: async () => undefined }), (line) => lines.push(line));

  /**
   * The user pool as the admin run sees it: unreachable while `down`, the server's pool otherwise; counts the
   * updates made and the sign-in users released (a rejection's call to the pool).
   */
  function flakyPool() {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const pool = {
      down: true,
      updates: 0,
      releases: 0,
      identity: {
        updateAttributes: async (...args: Parameters<ReviewDependencies['identity']['updateAttributes']>) => {
          if (pool.down) throw refused();
          pool.updates += 1;
          return server.app.identity.updateAttributes(...args);
        },
      },
      signInUsers: {
        ...server.app.signInUsers,
        release: async (...args: Parameters<ReviewDependencies['signInUsers']['release']>) => {
          if (pool.down) throw refused();
          pool.releases += 1;
          return server.app.signInUsers.release(...args);
        },
      },
    };
    return pool;
  }

  it('approving lets the customer log in, e-mails them in their language, and is audited once', async () => {
    const application = await signed('00000030R', 'en');
    await expect(signIn(server.base, '00000030R', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    await approveApplication(deps, application.id, 'marta', new Date());
    await expect(signIn(server.base, '00000030R', 'Clave-Divilo-2026')).resolves.toEqual(expect.any(String));
    expect(await lastEmail(application.email)).toContain('your Divilo account is ready');
    // Again: nothing is pending, so it says so and changes nothing.
    await expect(approveApplication(deps, application.id, 'marta', new Date())).resolves.toMatchObject({ already: true, finished: [] });
    const lines: string[] = [];
    await admin(lines).parseAsync(['node', 'admin', 'approve', application.id]);
    expect(lines).toEqual([`Application ${application.id} was approved already; nothing pending.`]);
    await expect(rejectApplication(deps, application.id, 'Second thoughts', 'marta', new Date())).rejects.toThrow(`Application ${application.id} was approved already: it cannot be rejected`);
    expect(await noticesTo(application.email)).toBe(1);
    const audit = await server.app.auditLog.listBySubject(`application:${application.id}`);
    expect(audit.filter((entry) => entry.action === 'onboarding.review_approved')).toEqual([expect.objectContaining({ actor: 'reviewer:marta' })]);
  });

  it('the command line sends an application back with the same service as the back office, and rejects with a template', async () => {
    const application = await signed('00000085Q', 'en');
    const lines: string[] = [];
    await expect(admin().parseAsync(['node', 'admin', 'more-info', application.id, '--steps', 'personal-info', '--message', 'x'])).rejects.toThrow('not personal-info');
    await admin(lines, { supportPhone: '+34 910 000 000' }).parseAsync(['node', 'admin', '--reviewer', 'marta', 'more-info', application.id, '--steps', 'fiscal-address,tax-registration-income', '--template', 'document-unreadable']);
    expect(lines).toEqual([`Application ${application.id} sent back to its applicant for fiscal-address, tax-registration-income.`]);
    expect(await lastEmail(application.email)).toContain('One of the documents you sent us cannot be read well.');
    const audit = await server.app.auditLog.listBySubject(`application:${application.id}`);
    expect(audit.find((entry) => entry.action === 'onboarding.review_more_info_requested')).toMatchObject({ actor: 'reviewer:marta', details: { steps: ['fiscal-address', 'tax-registration-income'], template: 'document-unreadable' } });

    const other = await signed('00000086V', 'es');
    await admin().parseAsync(['node', 'admin', '--reviewer', 'marta', 'reject', other.id, '--reason', 'Not our customer', '--template', 'activity-not-served']);
    expect(await lastEmail(other.email)).toContain('Por ahora Divilo no ofrece cuentas para la actividad de tu negocio.');
  });

  it('an unreachable user pool leaves the approval recorded with its effects pending; approving again finishes them, the e-mail sent once', async () => {
    const application = await signed('00000043G', 'en');
    const pool = flakyPool();
    await expect(admin([], { identity: pool.identity }).parseAsync(['node', 'admin', 'approve', application.id])).rejects.toThrow(
      `Application ${application.id} was approved, but user-pool-status failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9); effects pending: user-pool-status, notice-email. Run the command again to finish them`,
    );
    expect((await server.app.applications.find(application.id))!.status).toBe('approved');
    await expect(signIn(server.base, '00000043G', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    expect(await noticesTo(application.email)).toBe(0);
    const shown: string[] = [];
    await admin(shown).parseAsync(['node', 'admin', 'show', application.id]);
    expect(JSON.parse(shown.join('\n')).effectsPending).toEqual([
      { effect: 'user-pool-status', attempts: 1, lastError: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9', heldUntil: null },
      { effect: 'notice-email', attempts: 0, lastError: null, heldUntil: null },
    ]);
    // Still down: the second run fails the same way and sends nothing; a rejection is refused all along.
    await expect(admin([], { identity: pool.identity }).parseAsync(['node', 'admin', 'approve', application.id])).rejects.toThrow('effects pending: user-pool-status, notice-email');
    await expect(admin().parseAsync(['node', 'admin', 'reject', application.id, '--reason', 'x'])).rejects.toThrow('was approved already: it cannot be rejected');
    expect(await noticesTo(application.email)).toBe(0);

    pool.down = false;
    const lines: string[] = [];
    await admin(lines, { identity: pool.identity }).parseAsync(['node', 'admin', 'approve', application.id]);
    expect(lines).toEqual([`Application ${application.id} was approved already; now done: user-pool-status, notice-email.`]);
    await expect(signIn(server.base, '00000043G', 'Clave-Divilo-2026')).resolves.toEqual(expect.any(String));
    expect(await noticesTo(application.email)).toBe(1);
    const after: string[] = [];
    await admin(after, { identity: pool.identity }).parseAsync(['node', 'admin', 'approve', application.id]);
    expect(after).toEqual([`Application ${application.id} was approved already; nothing pending.`]);
    shown.length = 0;
    await admin(shown).parseAsync(['node', 'admin', 'show', application.id]);
    expect(JSON.parse(shown.join('\n')).effectsPending).toEqual([]);
    expect(pool.updates).toBe(1);
    expect(await noticesTo(application.email)).toBe(1);
    expect((await server.app.auditLog.listBySubject(`application:${application.id}`)).filter((entry) => entry.action === 'onboarding.review_approved')).toHaveLength(1);
  });

  it('two approvals at once, and two runs finishing one interrupted approval at once: each effect runs once', async () => {
    const counted = () => {
      const pool = flakyPool();
      pool.down = false;
      let sent = 0;
      const messages = { send: async (message: Parameters<ReviewDependencies['messages']['send']>[0]) => { sent += 1; await deps.messages.send(message); } };
      return { with_: { identity: pool.identity, messages }, counts: () => ({ updates: pool.updates, sent }) };
    };
    const first = await signed('00000044M');
    const [a, b] = [counted(), counted()];
    const both = await Promise.allSettled([approveApplication({ ...deps, ...a.with_ }, first.id, 'marta', new Date()), approveApplication({ ...deps, ...b.with_ }, first.id, 'pablo', new Date())]);
    expect(both.filter((result) => result.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    for (const result of both) if (result.status === 'rejected') expect(String(result.reason)).toContain('another run is carrying out');
    expect(a.counts().updates + b.counts().updates).toBe(1);
    expect(a.counts().sent + b.counts().sent).toBe(1);
    expect(await noticesTo(first.email)).toBe(1);
    expect((await server.app.auditLog.listBySubject(`application:${first.id}`)).filter((entry) => entry.action.startsWith('onboarding.review_'))).toHaveLength(1);

    const second = await signed('00000045Y');
    const down = flakyPool();
    await expect(approveApplication({ ...deps, identity: down.identity }, second.id, 'marta', new Date())).rejects.toThrow('effects pending');
    const [c, d] = [counted(), counted()];
    await Promise.allSettled([approveApplication({ ...deps, ...c.with_ }, second.id, 'marta', new Date()), approveApplication({ ...deps, ...d.with_ }, second.id, 'pablo', new Date())]);
    expect(c.counts().updates + d.counts().updates).toBe(1);
    expect(c.counts().sent + d.counts().sent).toBe(1);
    expect(await noticesTo(second.email)).toBe(1);
    expect(await pendingEffects(deps, second.id)).toEqual([]);
  });

  it('housekeeping finishes an interrupted decision once the pool is back, leaving alone an effect a live run holds', async () => {
    const application = await signed('00000046F', 'en');
    const pool = flakyPool();
    const now = new Date();
    await expect(rejectApplication({ ...deps, identity: pool.identity, signInUsers: pool.signInUsers }, application.id, 'Not resident', 'marta', now)).rejects.toThrow(
      'effects pending: sign-in-release, notice-email',
    );
    const housekeeping = { db: deps.db, applications: deps.applications, identity: pool.identity, signInUsers: pool.signInUsers, messages: deps.messages, supportPhone: deps.supportPhone, resumeUrl: deps.resumeUrl, evidence: deps.evidence };
    expect(await finishPendingDecisions(housekeeping, now)).toMatchObject({ failed: expect.any(Number) });
    expect((await pendingEffects(deps, application.id)).map((effect) => [effect.effect, effect.attempts])).toEqual([['sign-in-release', 2], ['notice-email', 0]]);
    // Until the release is done, the rejected applicant's user (and its hold on the ID) stays, unable to sign in.
    expect(await server.app.identity.getUser('00000046F')).toBeDefined();

    // A run holds the release (it claimed it and has not finished): housekeeping leaves it until the claim is over.
    pool.down = false;
    const held = new Date(now.getTime() + 1000);
    expect(await reviewEffectRepository(deps.db).claim(application.id, 'sign-in-release', held, new Date(held.getTime() + EFFECT_CLAIM_SECONDS * 1000))).toBe(true);
    await finishPendingDecisions(housekeeping, new Date(held.getTime() + 60_000));
    expect(pool.releases).toBe(0);
    expect(await noticesTo(application.email)).toBe(0);

    await finishPendingDecisions(housekeeping, new Date(held.getTime() + (EFFECT_CLAIM_SECONDS + 1) * 1000));
    expect(pool.releases).toBe(1);
    expect(await pendingEffects(deps, application.id)).toEqual([]);
    expect(await noticesTo(application.email)).toBe(1);
    expect(await lastEmail(application.email)).toContain('cannot open your Divilo account');
    expect(await server.app.identity.getUser('00000046F')).toBeUndefined();
    await expect(approveApplication(deps, application.id, 'marta', new Date())).rejects.toThrow(`Application ${application.id} was rejected already: it cannot be approved`);
  });

  it('rejecting needs a reason, records it, tells the applicant without it, and removes the sign-in user', async () => {
    const application = await signed('00000031P');
    await expect(rejectApplication(deps, application.id, '  ', 'marta', new Date())).rejects.toThrow('needs a reason');
    await rejectApplication(deps, application.id, 'Documents do not match', 'marta', new Date());
    expect((await server.app.applications.find(application.id))!.status).toBe('rejected');
    const notice = await lastEmail(application.email);
    expect(notice).toContain('no podemos abrir tu cuenta');
    // The number to call is the bank's, from the configuration: the one the app shows.
    expect(notice).toContain(`llámanos al ${server.config.supportPhone}`);
    expect(notice).not.toContain('Documents do not match');
    expect((await server.app.auditLog.listBySubject(`application:${application.id}`)).find((entry) => entry.action === 'onboarding.review_rejected')?.details).toEqual({ reason: 'Documents do not match' });
    // The sign-in user is gone with the rejection: no such user.
    await expect(signIn(server.base, '00000031P', 'Clave-Divilo-2026')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  it('rejecting releases the ID document: the sign-in user is removed, and a new sign-up with that ID goes on to its own password', async () => {
    const squatted = await signed('00000070R');
    expect(await server.app.identity.getUser('00000070R')).toMatchObject({ sub: squatted.answers.identityUserSub });
    await rejectApplication(deps, squatted.id, 'The document is not the applicant\'s', 'marta', new Date());
    expect(await server.app.identity.getUser('00000070R')).toBeUndefined();
    expect((await server.app.auditLog.listBySubject(`application:${squatted.id}`)).map((entry) => entry.action)).toEqual(expect.arrayContaining(['onboarding.review_rejected', 'onboarding.sign_in_user_removed']));

    const holder = await signUpAndConfirm(server, `holder-${dialect}@example.com`, '00000070R');
    expect(holder.body).toMatchObject({ next: 'personal-info', application: { status: 'in-progress' } });
    const application = holder.body.application as { id: string };
    expect((await setPasswordOf(server, application.id)).status).toBe(200);
    expect((await server.app.identity.getUser('00000070R'))?.sub).toBe((await server.app.applications.find(application.id))!.answers.identityUserSub);
  });

  it('only a signed application can be approved; the list shows status, path, risk and step; show names the contract', async () => {
    const early = await server.app.applications.create({ email: `early-${dialect}@example.com`, idDocument: '00000032D', answers: {}, completedSteps: ['signUp', 'reg-code'], language: 'es' }, new Date());
    await expect(approveApplication(deps, early.id, 'marta', new Date())).rejects.toThrow('only a signed application');
    const { id: unsigned } = await readyToSign(server, '00000034M');
    await expect(approveApplication(deps, unsigned, 'marta', new Date())).rejects.toThrow('is in-progress: only a signed application (pending-review) can be approved');
    expect((await server.app.applications.find(unsigned))!.status).toBe('in-progress');
    const rows = await listApplications(deps, new Date());
    expect(rows.find((row) => row.id === early.id)).toMatchObject({ status: 'in-progress', path: '-', step: 'personal-info', ageDays: 0 });
    const lines: string[] = [];
    await adminProgram(async () => ({ ...deps, close: async () => undefined }), (line) => lines.push(line)).parseAsync(['node', 'admin', 'list']);
    // (An `id-shared` column comes before the name when other applications of this server share an ID document.)
    expect(lines[0].split(/\s+/)).toEqual(expect.arrayContaining(['id', 'status', 'path', 'risk', 'step', 'days', 'name', 'email']));
    const cells = lines.find((line) => line.startsWith(early.id))!.split(/\s{2,}/);
    expect(cells.slice(0, 6)).toEqual([early.id, 'in-progress', '-', '-', 'personal-info', '0']);
    expect(cells.slice(-2)).toEqual(['-', `early-${dialect}@example.com`]);

    const application = await signed('00000035Y');
    const contract = (await server.app.contracts.find(application.id))!;
    const shown: string[] = [];
    await adminProgram(async () => ({ ...deps, close: async () => undefined }), (line) => shown.push(line)).parseAsync(['node', 'admin', 'show', application.id]);
    expect(JSON.parse(shown.join('\n'))).toMatchObject({ status: 'pending-review', contract: { sha256: contract.sha256, contractSha256: contract.contractSha256 } });
    const folder = mkdtempSync(path.join(tmpdir(), 'divilo-contract-'));
    try {
      const file = path.join(folder, 'contract.pdf');
      await adminProgram(async () => ({ ...deps, close: async () => undefined }), () => undefined).parseAsync(['node', 'admin', 'contract', application.id, file]);
      expect(readFileSync(file)).toEqual(await server.app.contracts.pdf(application.id));
      await expect(adminProgram(async () => ({ ...deps, close: async () => undefined }), () => undefined).parseAsync(['node', 'admin', 'contract', application.id, file])).rejects.toThrow('exists already');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
  const identityAudit = async (id: string) =>
    (await server.app.auditLog.listBySubject(`application:${id}`)).filter((entry) => entry.action.startsWith('onboarding.identity_check') || entry.action.startsWith('onboarding.review'));

  it('refuses to approve a signed application until a reviewer approved its identity; then approves it', async () => {
    const application = await signed('00000036Q', 'es', 'needs-review');
    await expect(approveApplication(deps, application.id, 'marta', new Date())).rejects.toThrow(`Application ${application.id} cannot be approved: its identity check is needs-review`);
    expect((await server.app.applications.find(application.id))!.status).toBe('pending-review');

    const lines: string[] = [];
    await admin(lines).parseAsync(['node', 'admin', '--reviewer', 'Lucía Gómez', 'identity', application.id, 'approve']);
    expect(lines).toEqual([`Identity of ${application.id} approved.`]);
    expect((await server.app.applications.find(application.id))!.answers.identityCheck).toMatchObject({ status: 'approved', provider: 'manual', reviewer: 'Lucía Gómez' });
    // The reviewer's name is the bank's: the applicant's view of the application does not carry it.
    const view = await fetch(`${server.api}/onboarding-management-private/application`, { headers: { authorization: `Bearer ${await server.app.onboardingTokens.issue(application.id)}` } });
    expect(JSON.stringify(await view.json())).not.toContain('Lucía Gómez');
    await expect(decideIdentity(deps, application.id, 'reject', 'marta', new Date(), 'late')).rejects.toThrow('is approved: only one waiting for review (needs-review) can be decided');

    await approveApplication(deps, application.id, 'marta', new Date());
    expect((await identityAudit(application.id)).map((entry) => [entry.actor, entry.action])).toEqual([
      ['reviewer:Lucía Gómez', 'onboarding.identity_check_approved'],
      ['reviewer:marta', 'onboarding.review_approved'],
    ]);
  });

  it("rejecting the identity of an unsigned application sends the applicant back to the photos, the reviewer's words kept for the bank", async () => {
    const { id, token } = await readyToSign(server, '00000037V', { identityCheck: 'needs-review' });
    await expect(decideIdentity(deps, id, 'reject', 'marta', new Date(), ' ')).rejects.toThrow('needs a reason');
    await decideIdentity(deps, id, 'reject', 'marta', new Date(), 'The selfie is a photo of a screen');
    const application = (await server.app.applications.find(id))!;
    expect(application.status).toBe('in-progress');
    expect(application.completedSteps).not.toContain('check-identity');
    const answer = await fetch(`${server.api}/onboarding-management-private/identity-check`, { headers: { authorization: `Bearer ${token}` } });
    expect(await answer.json()).toEqual({ status: 'rejected', reason: 'reviewer-rejected' });
    // The contract waits for new photos.
    const consent = await fetch(`${server.api}/onboarding-management-private/contract/consent`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ electronicIdentification: true }),
    });
    expect(consent.status).toBe(409);
    expect((await identityAudit(id)).map((entry) => [entry.actor, entry.action, entry.details])).toEqual([
      ['reviewer:marta', 'onboarding.identity_check_rejected', { provider: 'manual', reason: 'The selfie is a photo of a screen' }],
    ]);
  });

  it('rejecting the identity of a signed application rejects the application and tells the applicant without the reason', async () => {
    const application = await signed('00000038H', 'en', 'needs-review');
    await decideIdentity(deps, application.id, 'reject', 'marta', new Date(), 'Document front does not match the selfie');
    expect((await server.app.applications.find(application.id))!.status).toBe('rejected');
    const notice = await lastEmail(application.email);
    expect(notice).toContain('cannot open your Divilo account');
    expect(notice).toContain(`call us on ${server.config.supportPhone}`);
    expect(notice).not.toContain('does not match');
    expect((await identityAudit(application.id)).map((entry) => entry.action)).toEqual(['onboarding.identity_check_rejected', 'onboarding.review_rejected']);
    // The sign-in user is gone with the rejection: no such user.
    await expect(signIn(server.base, '00000038H', 'Clave-Divilo-2026')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
  });

  it('two reviewers deciding one identity at once: one decision is recorded, the other is refused', async () => {
    const application = await signed('00000039L', 'es', 'needs-review');
    const results = await Promise.allSettled([decideIdentity(deps, application.id, 'approve', 'marta', new Date()), decideIdentity(deps, application.id, 'reject', 'pablo', new Date(), 'blurred')]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await identityAudit(application.id)).filter((entry) => entry.action.startsWith('onboarding.identity_check'))).toHaveLength(1);
  });

  /** A signed application of 00000071W whose photos wait for the reviewer, by its own e-mail. */
  async function signedAs(who: string) {
    const { id, token } = await readyToSign(server, '00000071W', { identityCheck: 'needs-review', email: `${who}-${dialect}@example.com` });
    expect((await consentAndSign(server, token)).status).toBe(200);
    return id;
  }

  it('two applications of one ID document: both listed as sharing it; of two verifications at once exactly one holds it, and the other cannot be approved', async () => {
    const [first, second] = [await signedAs('one'), await signedAs('two')];
    const shared = async () => Object.fromEntries((await listApplications(deps, new Date())).filter((row) => row.id === first || row.id === second).map((row) => [row.id, row.idShared]));
    expect(await shared()).toEqual({ [first]: 'shared', [second]: 'shared' });
    // Neither has a sign-in user before its identity is verified.
    expect(await server.app.identity.getUser('00000071W')).toBeUndefined();

    const results = await Promise.allSettled([decideIdentity(deps, first, 'approve', 'marta', new Date()), decideIdentity(deps, second, 'approve', 'pablo', new Date())]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = results[0].status === 'fulfilled' ? first : second;
    const loser = winner === first ? second : first;
    const refusal = results.find((result): result is PromiseRejectedResult => result.status === 'rejected')!.reason as Error;
    expect(refusal.message).toBe(`Application ${loser} cannot be approved: ID document 00000071W is held by application ${winner}, whose identity was verified first. Reject this one with a reason`);
    expect(await server.app.db.selectFrom('id_document_holds').selectAll().where('id_document', '=', '00000071W').execute()).toEqual([expect.objectContaining({ application_id: winner })]);
    expect((await server.app.applications.find(loser))!.answers.identityCheck).toMatchObject({ status: 'needs-review' });
    expect(await shared()).toEqual({ [winner]: 'holds', [loser]: 'held-by-other' });
    // The sign-in user is the winner's, and the loser's sealed password never became one.
    expect((await server.app.identity.getUser('00000071W'))?.sub).toBe((await server.app.applications.find(winner))!.answers.identityUserSub);
    await expect(decideIdentity(deps, loser, 'approve', 'marta', new Date())).rejects.toThrow(`held by application ${winner}`);

    await approveApplication(deps, winner, 'marta', new Date());
    await expect(signIn(server.base, '00000071W', 'Clave-Divilo-2026')).resolves.toEqual(expect.any(String));
    await decideIdentity(deps, loser, 'reject', 'marta', new Date(), 'The ID document is another customer\'s');
    expect((await server.app.applications.find(loser))!.status).toBe('rejected');
    // Rejecting the one that never held it leaves the holder's user alone.
    await expect(signIn(server.base, '00000071W', 'Clave-Divilo-2026')).resolves.toEqual(expect.any(String));
  });

  it("an identity provider approving a person whose ID document another verified application holds hands it to the reviewer, flagged", async () => {
    const pendingCheck = async (email: string) => {
      const { id } = await readyToSign(server, '00000072A', { identityCheck: false, email });
      const current = (await server.app.applications.find(id))!;
      const startedAt = new Date().toISOString();
      await server.app.applications.save(current, { answers: { ...current.answers, identityCheck: { status: 'pending', provider: 'webhook', startedAt } }, completedSteps: [...current.completedSteps, 'check-identity'] }, new Date());
      return id;
    };
    const [holder, late] = [await pendingCheck(`holder-${dialect}@example.com`), await pendingCheck(`late-${dialect}@example.com`)];
    await server.app.identityCheck.recordIdentityResult(holder, { status: 'approved', provider: 'webhook' });
    expect((await server.app.applications.find(holder))!.answers.identityCheck).toMatchObject({ status: 'approved' });
    expect((await server.app.identity.getUser('00000072A'))?.sub).toBe((await server.app.applications.find(holder))!.answers.identityUserSub);

    await server.app.identityCheck.recordIdentityResult(late, { status: 'approved', provider: 'webhook' });
    expect((await server.app.applications.find(late))!.answers.identityCheck).toMatchObject({ status: 'needs-review', flags: ['id-document-held'] });
    expect((await identityAudit(late)).map((entry) => entry.action)).toEqual(['onboarding.identity_check_needs_review']);
    await expect(decideIdentity(deps, late, 'approve', 'marta', new Date())).rejects.toThrow(`ID document 00000072A is held by application ${holder}`);
    // The user is the holder's, waiting for approval as before.
    expect((await server.app.identity.getUser('00000072A'))?.sub).toBe((await server.app.applications.find(holder))!.answers.identityUserSub);
    await expect(signIn(server.base, '00000072A', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
  });

  it('the command line names who decides, and refuses a decision without a name or a valid choice', async () => {
    const application = await signed('00000042A', 'es', 'needs-review');
    await expect(admin().parseAsync(['node', 'admin', '--reviewer', '  ', 'identity', application.id, 'approve'])).rejects.toThrow('Name the reviewer');
    await expect(admin().parseAsync(['node', 'admin', 'identity', application.id, 'maybe'])).rejects.toThrow('approve or reject');
    await expect(admin().parseAsync(['node', 'admin', 'identity', application.id, 'reject'])).rejects.toThrow('needs a reason');
    const shown: string[] = [];
    await admin(shown).parseAsync(['node', 'admin', 'show', application.id]);
    expect(JSON.parse(shown.join('\n'))).toMatchObject({ identityCheck: { status: 'needs-review', provider: 'manual' } });
    await admin().parseAsync(['node', 'admin', 'identity', application.id, 'reject', '--reason', 'Expired document']);
    const [entry] = (await identityAudit(application.id)).filter((item) => item.action === 'onboarding.identity_check_rejected');
    expect(entry.actor).toMatch(/^reviewer:\S/);
  });
});

describe('npm run admin, as a process', () => {
  it('lists the applications of the server\'s database', async () => {
    const server = await startLoginServerOn('sqlite');
    try {
      const application = await server.app.applications.create({ email: 'spawned@example.com', idDocument: '00000033G', answers: {}, completedSteps: ['signUp', 'reg-code'], language: 'es' }, new Date());
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join('scripts', 'admin.ts'), 'list'], {
        env: { ...process.env, DATA_DIR: server.config.dataDir, PUBLIC_URL: server.base, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      });
      expect(stdout).toMatch(new RegExp(`^${application.id}  +in-progress`, 'm'));
    } finally {
      await server.close();
    }
  });
});
