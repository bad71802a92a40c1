// A person's access and erasure requests, end to end on both databases and the embedded storage: the export of
// everything held about them (their files checked by SHA-256, the bank's own assessment left out), by the back
// office and by `npm run admin`; the erasure of an application never sent to the bank, and the refusal, with its
// ground, for an approved customer; two requests at once erase once.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { adminProgram } from '../../../scripts/admin';
import type { PrivacyDependencies } from '../../../scripts/privacyCommands';
import { atRoot } from '../../../server/paths';
import { embeddedStorageCredentials } from '../../../server/plugins/storage';
import { reviewTemplateRepository } from '../../../server/repositories/reviewTemplateRepository';
import { answerErasureRequest } from '../../../server/services/erasureRequests';
import { addNote, approveApplication, rejectApplication } from '../../../server/services/reviews';
import { loadServerSecret } from '../../../server/services/serverSecret';
import { applicantCredentials, uploadDocument } from '../../../src/documentStorage/uploadDocument';
import { describeEachDialect } from '../helpers';
import { documentPhoto } from '../images';
import { startLoginServerOn } from '../login/loginServer';
import { call, consentAndSign, readyToSign } from '../onboarding/signing';
import { reviewDependenciesOf } from '../onboarding/reviewDependencies';
import { nextDni, signedInStaff, staffCall } from './staff';

jest.setTimeout(180_000);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const INTERNAL_NOTE = 'Nota interna: posible testaferro, vigilar';
const INTERNAL_REASON = 'Motivo interno: coincidencia en lista de vigilancia';
const PASSWORD = 'Clave-Divilo-2026';
/** An application as personal-data.json has it (what these tests read of it). */
interface Exported {
  id: string;
  status: string;
  statusLabel: string;
  applicant: Record<string, string>;
  answers: { step: string; fields: { field: string; label: string; value: unknown }[] }[];
  decision: unknown;
  activity: { action: string }[];
  contracts: { file: string; sha256: string }[];
  documents: { kind: string; file: string; sha256: string }[];
}
const today = () => new Date().toISOString().slice(0, 10);

/** The files of a ZIP archive by name, read with Info-ZIP's unzip (an implementation other than the one that wrote it). */
function unzipped(archive: Buffer): Map<string, Buffer> {
  const folder = mkdtempSync(path.join(tmpdir(), 'export-'));
  try {
    const file = path.join(folder, 'archive.zip');
    writeFileSync(file, archive);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
    return new Map(names.map((name) => [name, execFileSync('unzip', ['-p', file, name], { maxBuffer: 64 * 1024 * 1024 })]));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describeEachDialect('a person asks for their data, or for its erasure', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { IDENTITY_FACE_DETECTION: 'false', RATE_LIMIT_MAX: '100000', RATE_LIMIT_SENSITIVE_MAX: '10000' });
  });
  afterAll(() => server.close());

  const storageConfig = () => ({ region: server.config.storage.region, bucket: server.config.storage.bucket, endpoint: `${server.base}/s3` });
  async function keysUnder(prefix: string): Promise<string[]> {
    const client = new S3Client({ ...storageConfig(), forcePathStyle: true, credentials: embeddedStorageCredentials(loadServerSecret(server.config.dataDir, server.config.serverSecret)) });
    try {
      return ((await client.send(new ListObjectsV2Command({ Bucket: storageConfig().bucket, Prefix: prefix }))).Contents ?? []).map((object) => object.Key!);
    } finally {
      client.destroy();
    }
  }
  const privacy = (): PrivacyDependencies => ({
    db: server.app.db,
    applications: server.app.applications,
    auditLog: server.app.auditLog,
    contracts: server.app.contracts,
    documents: (id) => server.app.onboardingDocuments.list(id),
    storage: server.app.documents,
    identity: server.app.identity,
    localesDir: atRoot('locales'),
  });
  async function admin(...args: string[]): Promise<string[]> {
    const lines: string[] = [];
    await adminProgram(async () => ({ ...reviewDependenciesOf(server), privacy: privacy(), close: async () => undefined }), (line) => lines.push(line), 140).parseAsync(['node', 'admin', '--reviewer', 'dpo', ...args]);
    return lines;
  }

  /** An applicant up to their identity check: the three photos uploaded and copied as evidence. */
  async function withPhotos(idDocument: string, language: 'es' | 'en', email?: string) {
    const { id } = await readyToSign(server, idDocument, { identityCheck: false, language, email });
    const token = await server.app.onboardingTokens.issue(id);
    const identity = (await call(server, token, 'POST', 'storage-identity')).body as { identityId: string; token: string };
    const credentials = applicantCredentials(identity, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
    const photos: Record<string, Buffer> = { documentFront: await documentPhoto('png'), documentBack: await documentPhoto('jpeg', { portrait: false, seed: 3 }), selfie: await documentPhoto('jpeg', { seed: 11 }) };
    const keys: Record<string, string> = {};
    for (const [kind, bytes] of Object.entries(photos)) {
      const type = kind === 'documentFront' ? 'image/png' : 'image/jpeg';
      const { key } = await uploadDocument(new Blob([new Uint8Array(bytes)], { type }), { key: `${kind}/${kind}`, level: 'private', credentials, identityId: identity.identityId, config: storageConfig() });
      expect((await call(server, token, 'POST', 'documents', { kind, key })).status).toBe(200);
      keys[kind] = key;
    }
    expect((await call(server, token, 'POST', 'identity-check', keys)).status).toBe(200);
    return { id, token, identityId: identity.identityId, photos };
  }

  /** The identity approved as a reviewer approves it (the ID document held, the sign-in user made), then signed. */
  async function signed(who: { id: string; token: string }) {
    const current = (await server.app.applications.find(who.id))!;
    await server.app.signInUsers.claim(current, new Date());
    const at = new Date().toISOString();
    const saved = await server.app.applications.save(
      current,
      {
        answers: { ...current.answers, identityCheck: { status: 'approved', provider: 'manual', startedAt: at, decidedAt: at, reviewer: 'marta', flags: ['face-mismatch'] } },
        completedSteps: [...new Set([...current.completedSteps, 'check-identity', 'check-identity-waiting'])],
      },
      new Date(),
    );
    await server.app.signInUsers.ensureUser(saved!, new Date());
    expect((await consentAndSign(server, who.token)).status).toBe(200);
  }

  it('exports a rejected application whole to an administrator, in the applicant\'s language, and nothing of the bank\'s own assessment', async () => {
    const dni = nextDni();
    const who = await withPhotos(dni, 'en');
    await signed(who);
    const deps = reviewDependenciesOf(server);
    await addNote(deps, who.id, INTERNAL_NOTE, 'marta', new Date());
    await rejectApplication({ ...deps, templates: reviewTemplateRepository(server.app.db) }, who.id, INTERNAL_REASON, 'marta', new Date(), 'risk-policy');
    const administrator = await signedInStaff(server, ['administrator']);

    const answer = await staffCall(server, administrator.cookie, 'GET', `/applications/${who.id}/personal-data`);
    expect(answer).toMatchObject({ status: 200, type: 'application/zip' });
    const files = unzipped(answer.bytes);
    const text = files.get('personal-data.json')!.toString('utf8');
    const data = JSON.parse(text) as { language: string; applications: Exported[] };
    expect(data.language).toBe('en');
    const [exported] = data.applications;
    expect(exported).toMatchObject({ id: who.id, status: 'rejected', statusLabel: 'Rejected', applicant: { idDocument: dni } });
    // The answers with the labels the applicant read, in English.
    const personal = exported.answers.find((step) => step.step === 'personal-info')!;
    expect(personal.fields).toEqual(expect.arrayContaining([{ field: 'firstName', label: expect.stringMatching(/name/i), value: 'José' }]));
    // The decision as they were told it: the template's words, never the reason the bank recorded.
    expect(exported.decision).toEqual({ outcome: 'rejected', label: 'Rejected', decidedAt: expect.any(String), message: 'Your application does not meet our customer acceptance policy.' });
    expect(exported.activity.map((entry) => entry.action)).toEqual(expect.arrayContaining(['onboarding.password_set', 'onboarding.document_uploaded', 'onboarding.contract_signed']));

    // The signed contract, as the bank keeps it.
    const [contract] = exported.contracts;
    expect(sha256(files.get(contract.file)!)).toBe(contract.sha256);
    expect(contract.sha256).toBe((await server.app.contracts.find(who.id))!.sha256);
    // Each evidence copy, with its recorded SHA-256, and the bytes the applicant uploaded.
    const recorded = await server.app.onboardingDocuments.list(who.id);
    expect(exported.documents).toHaveLength(3);
    for (const document of exported.documents) {
      expect(sha256(files.get(document.file)!)).toBe(document.sha256);
      expect(document.sha256).toBe(recorded.find((entry) => entry.kind === document.kind)!.sha256);
      expect(document.sha256).toBe(sha256(who.photos[document.kind]));
    }
    expect([...files.keys()].sort()).toEqual(['personal-data.json', contract.file, ...exported.documents.map((document) => document.file)].sort());

    // Left out: internal notes, the rejection's reason, risk, the identity check's flags and reviewer, secrets.
    for (const kept of [INTERNAL_NOTE, INTERNAL_REASON, 'riskfactor', 'risk', 'face-mismatch', 'flags', 'marta', 'review_note', PASSWORD, 'identityUserSub']) {
      expect({ kept, found: text.includes(kept) }).toEqual({ kept, found: false });
    }
    const exports = (await server.app.auditLog.listBySubject(`application:${who.id}`)).filter((entry) => entry.action === 'privacy.personal_data_exported');
    expect(exports.map((entry) => entry.actor)).toEqual([`staff:${administrator.username}`]);
  });

  it('refuses the export to a reviewer (403, audited)', async () => {
    const { id } = await readyToSign(server, nextDni(), { identityCheck: false });
    const reviewer = await signedInStaff(server, ['reviewer']);
    expect(await staffCall(server, reviewer.cookie, 'GET', `/applications/${id}/personal-data`)).toMatchObject({ status: 403, body: { code: 'ROLE_REQUIRED' } });
    expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/erasure-request`, { receivedOn: today() })).toMatchObject({ status: 403, body: { code: 'ROLE_REQUIRED' } });
    const refusals = await server.app.auditLog.listBySubject(`staff:${reviewer.username}`);
    expect(refusals.filter((entry) => entry.action === 'backoffice.refused').map((entry) => (entry.details as { route: string }).route)).toEqual([
      '/staff-api/applications/:id/personal-data',
      '/staff-api/applications/:id/erasure-request',
    ]);
    expect((await server.app.auditLog.listBySubject(`application:${id}`)).some((entry) => entry.action === 'privacy.personal_data_exported')).toBe(false);
  });

  it('exports to internal control (compliance) too, audited with who', async () => {
    const { id } = await readyToSign(server, nextDni(), { identityCheck: false });
    const compliance = await signedInStaff(server, ['compliance']);
    const answer = await staffCall(server, compliance.cookie, 'GET', `/applications/${id}/personal-data`);
    expect(answer.status).toBe(200);
    const exports = (await server.app.auditLog.listBySubject(`application:${id}`)).filter((entry) => entry.action === 'privacy.personal_data_exported');
    expect(exports.map((entry) => entry.actor)).toEqual([`staff:${compliance.username}`]);
  });

  it('exports every application of an ID document, however it is written, into a new folder only', async () => {
    const dni = nextDni();
    const first = await readyToSign(server, dni, { identityCheck: false, language: 'en', email: `first-${dni}@example.com` });
    const second = await readyToSign(server, dni, { identityCheck: false, language: 'es', email: `second-${dni}@example.com` });
    const parent = mkdtempSync(path.join(tmpdir(), 'access-'));
    try {
      const folder = path.join(parent, 'person');
      const spelled = ` ${dni.slice(0, 4)} ${dni.slice(4).toLowerCase()}`;
      expect(await admin('export', spelled, folder)).toEqual([expect.stringContaining(`written to ${folder}`)]);
      const data = JSON.parse(readFileSync(path.join(folder, 'personal-data.json'), 'utf8')) as { language: string; notice: string; applications: { id: string; applicant: { email: string } }[] };
      expect(data.applications.map((application) => application.id).sort()).toEqual([first.id, second.id].sort());
      // The language of their latest application, Spanish labels.
      expect(data.language).toBe('es');
      expect(data.notice).toMatch(/datos personales/);
      const exports = await server.app.db.selectFrom('audit_log').select(['actor', 'subject']).where('action', '=', 'privacy.personal_data_exported').where('subject', 'in', [`application:${first.id}`, `application:${second.id}`]).execute();
      expect(exports).toHaveLength(2);
      expect(new Set(exports.map((entry) => entry.actor))).toEqual(new Set(['admin:dpo']));

      await expect(admin('export', dni, folder)).rejects.toThrow(`${folder} exists already: name a new folder`);
      await expect(admin('export', '00000000T', path.join(parent, 'nobody'))).rejects.toThrow('No application 00000000T');
      expect(existsSync(path.join(parent, 'nobody'))).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('erases an application never sent to the bank at once: its rows, files, evidence and storage identity', async () => {
    const who = await withPhotos(nextDni(), 'es');
    expect(await keysUnder(`private/${who.identityId}/`)).toHaveLength(3);
    expect(await keysUnder(`evidence/${who.id}/`)).toHaveLength(3);
    const administrator = await signedInStaff(server, ['administrator']);
    const request = (body: unknown) => staffCall(server, administrator.cookie, 'POST', `/applications/${who.id}/erasure-request`, body);

    expect(await request({ receivedOn: '2026-02-30' })).toMatchObject({ status: 400, body: { code: 'INVALID_RECEIVED_DATE' } });
    expect(await request({ receivedOn: '2999-01-01' })).toMatchObject({ status: 400, body: { code: 'INVALID_RECEIVED_DATE' } });
    expect(await server.app.applications.find(who.id)).toBeDefined();

    const answer = await request({ receivedOn: '2026-01-31' });
    expect(answer).toMatchObject({ status: 200, body: { answerDue: '2026-02-28', outcomes: [{ applicationId: who.id, outcome: 'erased' }] } });
    expect(await server.app.applications.find(who.id)).toBeUndefined();
    expect(await server.app.onboardingDocuments.list(who.id)).toEqual([]);
    expect(await keysUnder(`private/${who.identityId}/`)).toEqual([]);
    expect(await keysUnder(`evidence/${who.id}/`)).toEqual([]);
    expect(await server.app.documents.identityOf(who.id)).toBeUndefined();
    expect(await server.app.auditLog.listBySubject(`application:${who.id}`)).toEqual([]);
    const recorded = await server.app.db.selectFrom('erasure_requests').selectAll().where('requested_by', '=', `staff:${administrator.username}`).execute();
    expect(recorded).toEqual([expect.objectContaining({ application_id: expect.stringMatching(/^erased-/), received_on: '2026-01-31', outcome: 'erased', ground: null })]);
    const erased = await server.app.auditLog.listBySubject(`application:${recorded[0].application_id}`);
    expect(erased.filter((entry) => entry.action === 'onboarding.application_erased')).toEqual([expect.objectContaining({ actor: `staff:${administrator.username}`, details: { why: 'erasure-request' } })]);
  });

  it('keeps an approved customer\'s data, refusing with the legal ground, recorded', async () => {
    const dni = nextDni();
    const { id, token } = await readyToSign(server, dni, { language: 'es' });
    expect((await consentAndSign(server, token)).status).toBe(200);
    await approveApplication(reviewDependenciesOf(server), id, 'marta', new Date());
    const contract = (await server.app.contracts.find(id))!;

    const lines = await admin('erasure-request', dni.toLowerCase(), '--received', today());
    expect(lines[0]).toBe(
      `Application ${id} kept, erasure refused: an approved customer: the due-diligence records are kept for the business relationship and the retention period after it (Ley 10/2010, art. 25; Regulation (EU) 2024/1624, art. 77). The refusal is recorded; tell the person the ground.`,
    );
    expect(lines[1]).toMatch(/^Answer the person by \d{4}-\d{2}-\d{2} \(one month from receipt, GDPR art\. 12\.3\)\.$/);
    expect(await server.app.applications.find(id)).toMatchObject({ status: 'approved', idDocument: dni });
    expect((await server.app.contracts.find(id))!.sha256).toBe(contract.sha256);
    expect(await server.app.db.selectFrom('erasure_requests').select(['requested_by', 'outcome', 'ground']).where('application_id', '=', id).execute()).toEqual([
      { requested_by: 'admin:dpo', outcome: 'refused', ground: 'customer-relationship' },
    ]);
    const refused = (await server.app.auditLog.listBySubject(`application:${id}`)).filter((entry) => entry.action === 'privacy.erasure_refused');
    expect(refused).toEqual([expect.objectContaining({ actor: 'admin:dpo', details: { receivedOn: today(), ground: 'customer-relationship', law: 'Ley 10/2010, art. 25; Regulation (EU) 2024/1624, art. 77' } })]);
    await expect(admin('erasure-request', dni, '--received', 'yesterday')).rejects.toThrow('The day the request was received is a date YYYY-MM-DD');
  });

  it('blocks a refused application once its person asked for its erasure: only compliance reads it then', async () => {
    const dni = nextDni();
    const who = await withPhotos(dni, 'es');
    await signed(who);
    const deps = reviewDependenciesOf(server);
    await rejectApplication({ ...deps, templates: reviewTemplateRepository(server.app.db) }, who.id, INTERNAL_REASON, 'marta', new Date(), 'risk-policy');
    const reviewer = await signedInStaff(server, ['reviewer']);
    const compliance = await signedInStaff(server, ['compliance']);
    expect((await staffCall(server, reviewer.cookie, 'GET', `/applications/${who.id}`)).status).toBe(200);

    expect((await admin('erasure-request', who.id, '--received', today()))[0]).toMatch(new RegExp(`^Application ${who.id} kept, erasure refused: `));
    expect(await staffCall(server, reviewer.cookie, 'GET', `/applications/${who.id}`)).toMatchObject({ status: 404, body: { code: 'APPLICATION_NOT_FOUND' } });
    expect((await staffCall(server, compliance.cookie, 'GET', `/applications/${who.id}`)).status).toBe(200);
    expect(await server.app.applications.find(who.id)).toMatchObject({ status: 'rejected', idDocument: dni });
  });

  it('leaves a customer still served open to the staff when their erasure is refused', async () => {
    const { id, token } = await readyToSign(server, nextDni(), { language: 'es' });
    expect((await consentAndSign(server, token)).status).toBe(200);
    await approveApplication(reviewDependenciesOf(server), id, 'marta', new Date());
    const reviewer = await signedInStaff(server, ['reviewer']);
    expect((await admin('erasure-request', id, '--received', today()))[0]).toMatch(new RegExp(`^Application ${id} kept, erasure refused: `));
    expect((await staffCall(server, reviewer.cookie, 'GET', `/applications/${id}`)).status).toBe(200);
  });

  it('erases once when the same request is recorded twice at the same moment', async () => {
    const who = await withPhotos(nextDni(), 'en');
    const before = await server.app.db.selectFrom('audit_log').select('id').where('action', '=', 'onboarding.application_erased').execute();
    const deps = { db: server.app.db, identity: server.app.identity, auditLog: server.app.auditLog, storage: server.app.documents };
    const outcomes = (
      await Promise.all([
        answerErasureRequest(deps, who.id, { receivedOn: today(), actor: 'staff:one' }, new Date()),
        answerErasureRequest(deps, who.id, { receivedOn: today(), actor: 'staff:two' }, new Date()),
      ])
    ).flat();
    expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['already-erased', 'erased']);
    const after = await server.app.db.selectFrom('audit_log').select('id').where('action', '=', 'onboarding.application_erased').execute();
    expect(after.length - before.length).toBe(1);
    const recorded = await server.app.db.selectFrom('erasure_requests').select(['outcome']).where('requested_by', 'in', ['staff:one', 'staff:two']).execute();
    expect(recorded).toEqual([{ outcome: 'erased' }]);
    expect(await server.app.applications.find(who.id)).toBeUndefined();
    expect(await keysUnder(`evidence/${who.id}/`)).toEqual([]);
  });
});
