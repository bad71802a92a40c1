// The law's periods against the whole server on both databases and the embedded storage: a customer's end of
// relationship recorded once (back office and `npm run admin`), the evidence then locked ten years after it; five
// years after it the customer is for internal control only; at the end of each period housekeeping erases the
// application (a customer ten years after the end, a refusal five years after it), never before its lock is over.
// Decisions are recorded at an injected time in the past, and the storage endpoint's clock moved years ahead.
import { DeleteObjectCommand, GetObjectRetentionCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { adminProgram } from '../../scripts/admin';
import { embeddedStorageCredentials } from '../../server/plugins/storage';
import { approveApplication, rejectApplication } from '../../server/services/reviews';
import { LEGAL_GROUNDS } from '../../server/services/retention';
import { endRetention } from '../../server/services/retentionSweep';
import { loadServerSecret } from '../../server/services/serverSecret';
import { applicantCredentials, uploadDocument } from '../../src/documentStorage/uploadDocument';
import { nextDni, signedInStaff, staffCall } from './backOffice/staff';
import { describeEachDialect } from './helpers';
import { startLoginServerOn } from './login/loginServer';
import { call, consentAndSign, readyToSign } from './onboarding/signing';
import { reviewDependenciesOf } from './onboarding/reviewDependencies';
import { plainPdf } from './pdfs';

jest.setTimeout(180_000);

const DAY = 86_400_000;
const yearsFrom = (date: Date, years: number) => {
  const later = new Date(date);
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return later;
};
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describeEachDialect('retention: end of relationship, internal control, erasure at the end of the period', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  const storageClock = { offsetMs: 0 };
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { RATE_LIMIT_MAX: '100000', RATE_LIMIT_SENSITIVE_MAX: '1000' }, { storageClock: () => Date.now() + storageClock.offsetMs });
  });
  afterAll(() => server.close());

  const bucket = () => server.config.storage.bucket;
  const serverS3 = () =>
    new S3Client({
      region: server.config.storage.region,
      endpoint: `${server.base}/s3`,
      forcePathStyle: true,
      maxAttempts: 1,
      systemClockOffset: storageClock.offsetMs,
      credentials: embeddedStorageCredentials(loadServerSecret(server.config.dataDir, server.config.serverSecret)),
    });
  /** The storage endpoint's clock and the server's own client moved together (S3 refuses requests signed 15 minutes off). */
  const storageAt = (at: Date) => {
    storageClock.offsetMs = at.getTime() - Date.now();
    server.app.documents.storage.client.config.systemClockOffset = storageClock.offsetMs;
  };
  const evidenceKeys = async (id: string) => {
    const s3 = serverS3();
    try {
      return ((await s3.send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `evidence/${id}/` }))).Contents ?? []).map((object) => object.Key!);
    } finally {
      s3.destroy();
    }
  };
  const auditOf = (id: string) => server.app.db.selectFrom('audit_log').selectAll().where('subject', '=', `application:${id}`).orderBy('id').execute();

  /** A signed application with a model 036 frozen as evidence, then decided at `decidedAt`. */
  async function decided(decision: 'approved' | 'rejected', decidedAt: Date) {
    const dni = nextDni();
    const { id, token } = await readyToSign(server, dni);
    const storage = (await call(server, token, 'POST', 'storage-identity')).body as { identityId: string; token: string };
    const credentials = applicantCredentials(storage, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
    const config = { region: server.config.storage.region, bucket: bucket(), endpoint: `${server.base}/s3` };
    const { key } = await uploadDocument(new Blob([new Uint8Array(plainPdf({ size: 2000 }))], { type: 'application/pdf' }), { key: 'model036/m.pdf', level: 'private', credentials, identityId: storage.identityId, config });
    expect((await call(server, token, 'POST', 'documents', { kind: 'model036', key })).status).toBe(200);
    expect((await consentAndSign(server, token)).status).toBe(200);
    const deps = reviewDependenciesOf(server);
    if (decision === 'approved') await approveApplication(deps, id, 'marta', decidedAt);
    else await rejectApplication(deps, id, 'Documents do not match', 'marta', decidedAt);
    expect((await evidenceKeys(id)).length).toBeGreaterThan(0);
    return { id, dni };
  }

  const admin = async (...args: string[]) => {
    const lines: string[] = [];
    const deps = {
      ...reviewDependenciesOf(server),
      retention: { settings: server.config.retention, retainEvidence: (id: string, until: Date) => server.app.documents.retainEvidence(id, until) },
      close: async () => undefined,
    };
    await adminProgram(async () => deps, (line) => lines.push(line)).parseAsync(['node', 'admin', '--reviewer', 'carmen', ...args]);
    return lines;
  };

  it('records the end once, moves the lock on, blocks the customer for all but internal control, and erases each application when its period is over', async () => {
    const now = new Date();
    const approvedAt = new Date(now.getTime() - 6 * 365 * DAY);
    const rejectedAt = new Date(now.getTime() - 4 * 365 * DAY);
    const customer = await decided('approved', approvedAt);
    const refused = await decided('rejected', rejectedAt);
    const compliance = await signedInStaff(server, ['compliance']);
    const reviewer = await signedInStaff(server, ['reviewer', 'approver']);
    const endedOn = dayOf(approvedAt);
    const end = (cookie: string, id: string, date: string) => staffCall(server, cookie, 'POST', `/applications/${id}/relationship-end`, { date });

    // Who may record it, and what is refused, each with its code.
    expect(await end(reviewer.cookie, customer.id, endedOn)).toMatchObject({ status: 403, body: { code: 'ROLE_REQUIRED' } });
    expect(await end(compliance.cookie, customer.id, '2020-02-30')).toMatchObject({ status: 400, body: { code: 'INVALID_DATE' } });
    expect(await end(compliance.cookie, customer.id, dayOf(new Date(now.getTime() + 2 * DAY)))).toMatchObject({ status: 400, body: { code: 'DATE_IN_FUTURE' } });
    expect(await end(compliance.cookie, customer.id, dayOf(new Date(approvedAt.getTime() - 2 * DAY)))).toMatchObject({ status: 400, body: { code: 'DATE_BEFORE_APPROVAL' } });
    expect(await end(compliance.cookie, refused.id, endedOn)).toMatchObject({ status: 409, body: { code: 'NOT_A_CUSTOMER' } });
    expect(await end(compliance.cookie, '00000000-0000-4000-8000-000000000000', endedOn)).toMatchObject({ status: 404, body: { code: 'APPLICATION_NOT_FOUND' } });
    expect(await auditOf(customer.id)).not.toContainEqual(expect.objectContaining({ action: 'onboarding.relationship_ended' }));

    // Two at once with different dates: one is recorded, the other refused; the same date again only locks again.
    const later = dayOf(new Date(approvedAt.getTime() + DAY));
    const answers = await Promise.all([end(compliance.cookie, customer.id, endedOn), end(compliance.cookie, customer.id, later)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const recorded = answers.find((answer) => answer.status === 200)!.body as { endedOn: string; retainUntil: string; already: boolean };
    expect(answers.find((answer) => answer.status === 409)!.body).toMatchObject({ code: 'RELATIONSHIP_ALREADY_ENDED' });
    const retainUntil = yearsFrom(new Date(Date.parse(`${recorded.endedOn}T00:00:00.000Z`) + DAY), 10);
    expect(recorded).toEqual({ endedOn: recorded.endedOn, retainUntil: retainUntil.toISOString(), already: false });
    expect(await end(compliance.cookie, customer.id, recorded.endedOn)).toMatchObject({ status: 200, body: { already: true } });
    const ended = (await auditOf(customer.id)).filter((entry) => entry.action === 'onboarding.relationship_ended');
    expect(ended).toEqual([expect.objectContaining({ actor: `staff:${compliance.username}`, details: JSON.stringify({ endedOn: recorded.endedOn, retainUntil: retainUntil.toISOString() }) })]);
    const s3 = serverS3();
    const [evidence] = await evidenceKeys(customer.id);
    try {
      expect((await s3.send(new GetObjectRetentionCommand({ Bucket: bucket(), Key: evidence }))).Retention).toEqual({ Mode: 'COMPLIANCE', RetainUntilDate: retainUntil });
    } finally {
      s3.destroy();
    }

    // More than five years after the end: hidden from the reviewer as if it were not there, read by internal control.
    for (const path of [`/applications/${customer.id}`, `/applications/${customer.id}/documents/model036`, `/applications/${customer.id}/contract`]) {
      expect(await staffCall(server, reviewer.cookie, 'GET', path)).toMatchObject({ status: 404, body: { code: 'APPLICATION_NOT_FOUND' } });
      expect((await staffCall(server, compliance.cookie, 'GET', path)).status).toBe(200);
    }
    expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${customer.id}/notes`, { text: 'Looked again' })).toMatchObject({ status: 404 });
    expect(await auditOf(customer.id)).toContainEqual(
      expect.objectContaining({ actor: `staff:${compliance.username}`, action: 'backoffice.application_viewed', details: JSON.stringify({ blocked: true }) }),
    );
    // The refusal is not blocked: the reviewer still reads it until it goes.
    expect((await staffCall(server, reviewer.cookie, 'GET', `/applications/${refused.id}`)).status).toBe(200);

    // The schedule, as the bank reads it.
    const refusedUntil = yearsFrom(new Date((await auditOf(refused.id)).find((entry) => entry.action === 'onboarding.review_rejected')!.occurred_at), 5);
    const blockedFrom = yearsFrom(new Date(Date.parse(`${recorded.endedOn}T00:00:00.000Z`) + DAY), 5);
    expect(await admin('retention', 'report', '--as-of', dayOf(now))).toEqual([
      `Retention as of ${dayOf(now)}: 3 event(s)`,
      `${dayOf(blockedFrom)}  since  blocked  customer  ${customer.id}  ${LEGAL_GROUNDS.customerBlocked}`,
      `${dayOf(refusedUntil)}  on     deleted  refused   ${refused.id}  ${LEGAL_GROUNDS.refusedDeleted}`,
      `${dayOf(retainUntil)}  on     deleted  customer  ${customer.id}  ${LEGAL_GROUNDS.customerDeleted}`,
    ]);

    const deps = { db: server.app.db, identity: server.app.identity, auditLog: server.app.auditLog, storage: server.app.documents, retention: server.config.retention, log: server.app.log };
    try {
      // Nothing is due yet.
      expect(await endRetention(deps, now)).toEqual({ customers: 0, refused: 0, failed: 0 });

      // A day after the refusal's five years: the refusal goes, the customer stays, and their evidence refuses a delete.
      const afterRefusal = new Date(refusedUntil.getTime() + DAY);
      storageAt(afterRefusal);
      expect(await endRetention(deps, afterRefusal)).toEqual({ customers: 0, refused: 1, failed: 0 });
      expect(await server.app.applications.find(refused.id)).toBeUndefined();
      expect(await evidenceKeys(refused.id)).toEqual([]);
      expect(await auditOf(refused.id)).toEqual([]);
      const early = serverS3();
      try {
        await expect(early.send(new DeleteObjectCommand({ Bucket: bucket(), Key: evidence }))).rejects.toMatchObject({ name: 'AccessDenied' });
      } finally {
        early.destroy();
      }
      expect(await server.app.applications.find(customer.id)).toBeDefined();

      // A day after the customer's ten years: everything of theirs goes, their audit trail kept under a pseudonym.
      const afterCustomer = new Date(retainUntil.getTime() + DAY);
      storageAt(afterCustomer);
      expect(await endRetention(deps, afterCustomer)).toEqual({ customers: 1, refused: 0, failed: 0 });
      expect(await server.app.applications.find(customer.id)).toBeUndefined();
      expect(await evidenceKeys(customer.id)).toEqual([]);
      expect(await auditOf(customer.id)).toEqual([]);
      expect(await server.app.identity.getUser(customer.dni)).toBeUndefined();
      const erased = await server.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'onboarding.application_erased').orderBy('id').execute();
      expect(erased.map((entry) => [entry.subject.replace(/erased-[0-9a-f-]{36}/, 'erased'), entry.details])).toEqual([
        ['application:erased', JSON.stringify({ why: 'retention-ended', decision: 'rejected' })],
        ['application:erased', JSON.stringify({ why: 'retention-ended', decision: 'approved' })],
      ]);
      const pseudonymised = await server.app.db.selectFrom('audit_log').selectAll().where('subject', '=', erased[1].subject).execute();
      expect(pseudonymised.map((entry) => entry.action)).toEqual(expect.arrayContaining(['onboarding.review_approved', 'onboarding.relationship_ended', 'backoffice.application_viewed']));
      expect(JSON.stringify(pseudonymised)).not.toContain(customer.id);
      expect(await admin('retention', 'report', '--as-of', dayOf(afterCustomer))).toEqual([`Retention as of ${dayOf(afterCustomer)}: nothing to block or delete`]);
    } finally {
      storageAt(new Date());
      storageClock.offsetMs = 0;
    }
  });

  it('npm run admin relationship-end records the end with the operator, and refuses with the same codes', async () => {
    const customer = await decided('approved', new Date());
    const today = dayOf(new Date());
    await expect(admin('relationship-end', '00000000-0000-4000-8000-000000000000', '--date', today)).rejects.toMatchObject({ code: 'APPLICATION_NOT_FOUND' });
    await expect(admin('relationship-end', customer.id, '--date', '31/12/2026')).rejects.toMatchObject({ code: 'INVALID_DATE' });
    await expect(admin('relationship-end', customer.id, '--date', dayOf(new Date(Date.now() + 2 * DAY)))).rejects.toMatchObject({ code: 'DATE_IN_FUTURE' });
    const until = yearsFrom(new Date(Date.parse(`${today}T00:00:00.000Z`) + DAY), 10).toISOString();
    expect(await admin('relationship-end', customer.id, '--date', today)).toEqual([`The relationship of application ${customer.id} ended on ${today}; its evidence is locked until ${until}.`]);
    expect(await admin('relationship-end', customer.id, '--date', today)).toEqual([`The relationship of application ${customer.id} ended on ${today} already; its evidence is locked until ${until}.`]);
    await expect(admin('relationship-end', customer.id, '--date', dayOf(new Date(Date.now() - DAY)))).rejects.toMatchObject({ code: 'RELATIONSHIP_ALREADY_ENDED' });
    expect((await auditOf(customer.id)).filter((entry) => entry.action === 'onboarding.relationship_ended').map((entry) => entry.actor)).toEqual(['reviewer:carmen']);
    // Ended today: open to the bank's reviewers for five more years.
    const reviewer = await signedInStaff(server, ['reviewer']);
    expect((await staffCall(server, reviewer.cookie, 'GET', `/applications/${customer.id}`)).status).toBe(200);
  });
});
