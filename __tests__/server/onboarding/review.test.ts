// The bank's review (npm run admin): only a signed application can be approved; approve lets the customer log
// in and tells them; reject records why.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { adminProgram } from '../../../scripts/admin';
import { outboxSender } from '../../../server/services/messaging/outboxSender';
import { approveApplication, decideIdentity, listApplications, rejectApplication, type ReviewDependencies } from '../../../server/services/reviews';
import { describeEachDialect } from '../helpers';
import { signIn, startLoginServerOn } from '../login/loginServer';
import { consentAndSign, readyToSign } from './signing';

describeEachDialect('onboarding: the review', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  let deps: ReviewDependencies;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
    deps = {
      db: server.app.db,
      applications: server.app.applications,
      contracts: server.app.contracts,
      identity: server.app.identity,
      auditLog: server.app.auditLog,
      // The bank's notices go straight to the provider, as `npm run admin` sends them.
      messages: outboxSender(server.app.db, server.app.log),
      supportPhone: server.config.supportPhone,
    };
  });
  afterAll(() => server.close());

  /** An application signed through the contract calls: pending review (its identity approved, unless said). */
  async function signed(idDocument: string, language: 'es' | 'en' = 'es', identityCheck: 'approved' | 'needs-review' = 'approved') {
    const { id, token } = await readyToSign(server, idDocument, { language, identityCheck });
    expect((await consentAndSign(server, token)).status).toBe(200);
    return (await server.app.applications.find(id))!;
  }
  const lastEmail = async (to: string) => (await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', to).orderBy('id', 'desc').executeTakeFirstOrThrow()).text;

  it('approving lets the customer log in, e-mails them in their language, and is audited once', async () => {
    const application = await signed('00000030R', 'en');
    await expect(signIn(server.base, '00000030R', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    await approveApplication(deps, application.id, 'marta');
    await expect(signIn(server.base, '00000030R', 'Clave-Divilo-2026')).resolves.toEqual(expect.any(String));
    expect(await lastEmail(application.email)).toContain('your Divilo account is ready');
    await expect(approveApplication(deps, application.id, 'marta')).rejects.toThrow('approved already');
    const audit = await server.app.auditLog.listBySubject(`application:${application.id}`);
    expect(audit.filter((entry) => entry.action === 'onboarding.review_approved')).toEqual([expect.objectContaining({ actor: 'reviewer:marta' })]);
  });

  it('rejecting needs a reason, records it, tells the applicant without it, and keeps sign-in closed', async () => {
    const application = await signed('00000031W');
    await expect(rejectApplication(deps, application.id, '  ', 'marta')).rejects.toThrow('needs a reason');
    await rejectApplication(deps, application.id, 'Documents do not match', 'marta');
    expect((await server.app.applications.find(application.id))!.status).toBe('rejected');
    const notice = await lastEmail(application.email);
    expect(notice).toContain('no podemos abrir tu cuenta');
    // The number to call is the bank's, from the configuration: the one the app shows.
    expect(notice).toContain(`llámanos al ${server.config.supportPhone}`);
    expect(notice).not.toContain('Documents do not match');
    expect((await server.app.auditLog.listBySubject(`application:${application.id}`)).find((entry) => entry.action === 'onboarding.review_rejected')?.details).toEqual({ reason: 'Documents do not match' });
    // Sign-in stays closed, and says the application was rejected rather than still in review.
    await expect(signIn(server.base, '00000031W', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2810') });
  });

  it('only a signed application can be approved; the list shows status, path, risk and step; show names the contract', async () => {
    const early = await server.app.applications.create({ email: `early-${dialect}@example.com`, idDocument: '00000032A', answers: {}, completedSteps: ['signUp', 'reg-code'], language: 'es' }, new Date());
    await expect(approveApplication(deps, early.id, 'marta')).rejects.toThrow('only a signed application');
    const { id: unsigned } = await readyToSign(server, '00000034M');
    await expect(approveApplication(deps, unsigned, 'marta')).rejects.toThrow('is in-progress: only a signed application (pending-review) can be approved');
    expect((await server.app.applications.find(unsigned))!.status).toBe('in-progress');
    const rows = await listApplications(deps, new Date());
    expect(rows.find((row) => row.id === early.id)).toMatchObject({ status: 'in-progress', path: '-', step: 'personal-info', ageDays: 0 });
    const lines: string[] = [];
    await adminProgram(async () => ({ ...deps, close: async () => undefined }), (line) => lines.push(line)).parseAsync(['node', 'admin', 'list']);
    expect(lines[0]).toBe('id\tstatus\tpath\trisk\tstep\tdays');
    expect(lines.some((line) => line.startsWith(`${early.id}\tin-progress\t-\t-\tpersonal-info\t0`))).toBe(true);

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
  const admin = (lines: string[] = []) => adminProgram(async () => ({ ...deps, close: async () => undefined }), (line) => lines.push(line));

  it('refuses to approve a signed application until a reviewer approved its identity; then approves it', async () => {
    const application = await signed('00000036Q', 'es', 'needs-review');
    await expect(approveApplication(deps, application.id, 'marta')).rejects.toThrow(`Application ${application.id} cannot be approved: its identity check is needs-review`);
    expect((await server.app.applications.find(application.id))!.status).toBe('pending-review');

    const lines: string[] = [];
    await admin(lines).parseAsync(['node', 'admin', '--reviewer', 'Lucía Gómez', 'identity', application.id, 'approve']);
    expect(lines).toEqual([`Identity of ${application.id} approved.`]);
    expect((await server.app.applications.find(application.id))!.answers.identityCheck).toMatchObject({ status: 'approved', provider: 'manual', reviewer: 'Lucía Gómez' });
    // The reviewer's name is the bank's: the applicant's view of the application does not carry it.
    const view = await fetch(`${server.api}/onboarding-management-private/application`, { headers: { authorization: `Bearer ${await server.app.onboardingTokens.issue(application.id)}` } });
    expect(JSON.stringify(await view.json())).not.toContain('Lucía Gómez');
    await expect(decideIdentity(deps, application.id, 'reject', 'marta', new Date(), 'late')).rejects.toThrow('is approved: only one waiting for review (needs-review) can be decided');

    await approveApplication(deps, application.id, 'marta');
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
    await expect(signIn(server.base, '00000038H', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2810') });
  });

  it('two reviewers deciding one identity at once: one decision is recorded, the other is refused', async () => {
    const application = await signed('00000039L', 'es', 'needs-review');
    const results = await Promise.allSettled([decideIdentity(deps, application.id, 'approve', 'marta'), decideIdentity(deps, application.id, 'reject', 'pablo', new Date(), 'blurred')]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await identityAudit(application.id)).filter((entry) => entry.action.startsWith('onboarding.identity_check'))).toHaveLength(1);
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
      expect(stdout).toContain(`${application.id}\tin-progress`);
    } finally {
      await server.close();
    }
  });
});
