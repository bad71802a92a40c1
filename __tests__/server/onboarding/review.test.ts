// The bank's review (npm run admin): only a signed application can be approved; approve lets the customer log
// in and tells them; reject records why.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { adminProgram } from '../../../scripts/admin';
import { outboxSender } from '../../../server/services/messaging/outboxSender';
import { approveApplication, listApplications, rejectApplication, type ReviewDependencies } from '../../../server/services/reviews';
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
    };
  });
  afterAll(() => server.close());

  /** An application signed through the contract calls: pending review. */
  async function signed(idDocument: string, language: 'es' | 'en' = 'es') {
    const { id, token } = await readyToSign(server, idDocument, { language });
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
    expect(notice).not.toContain('Documents do not match');
    expect((await server.app.auditLog.listBySubject(`application:${application.id}`)).find((entry) => entry.action === 'onboarding.review_rejected')?.details).toEqual({ reason: 'Documents do not match' });
    await expect(signIn(server.base, '00000031W', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
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
