// Evidence that cannot change after it was relied on, against the whole server on both databases: the photos
// copied with their SHA-256 into the server's own area when the identity check starts, the other documents at
// signature; what the applicant can still do with their own credentials and token afterwards (nothing that
// reaches the copies), the identity data the check compared, and the bank's review reading the copies.
import { createHash, randomBytes } from 'node:crypto';
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, GetObjectRetentionCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { adminProgram } from '../../../scripts/admin';
import { embeddedStorageCredentials, storageAreaOf } from '../../../server/plugins/storage';
import { approveApplication, rejectApplication } from '../../../server/services/reviews';
import { loadServerSecret } from '../../../server/services/serverSecret';
import { applicantCredentials, uploadDocument } from '../../../src/documentStorage/uploadDocument';
import { describeEachDialect } from '../helpers';
import { documentPhoto } from '../images';
import { plainPdf } from '../pdfs';
import { pageTexts } from '../pdfInspection';
import { lastCode, startLoginServerOn } from '../login/loginServer';
import { call, consentAndSign, PHONE, readyToSign, STEPS_BEFORE_PASSWORD } from './signing';
import { reviewDependenciesOf } from './reviewDependencies';

type Server = Awaited<ReturnType<typeof startLoginServerOn>>;
const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: 'Núñez', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
jest.setTimeout(60_000);

describeEachDialect('onboarding: evidence frozen once relied on', (dialect) => {
  let server: Server;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { IDENTITY_FACE_DETECTION: 'false', RATE_LIMIT_MAX: '5000', RATE_LIMIT_SENSITIVE_MAX: '1000' });
  });
  afterAll(() => server.close());

  const storageConfig = () => ({ region: server.config.storage.region, bucket: server.config.storage.bucket, endpoint: `${server.base}/s3` });
  /** The server's own storage client (credentials derived as the app derives them). */
  const serverS3 = () =>
    new S3Client({ ...storageConfig(), forcePathStyle: true, maxAttempts: 1, credentials: embeddedStorageCredentials(loadServerSecret(server.config.dataDir, server.config.serverSecret)) });
  const bytesAt = async (client: S3Client, key: string) =>
    Buffer.from((await (await client.send(new GetObjectCommand({ Bucket: storageConfig().bucket, Key: key }))).Body!.transformToByteArray()));

  let applicants = 0;
  /** A freelancer up to the photos (personal data saved), with storage credentials as the browser has them. */
  async function applicant() {
    applicants += 1;
    const number = 40_000_000 + applicants;
    const idDocument = `${number}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`;
    const created = await server.app.applications.create(
      { email: `evidence${applicants}-${dialect}@example.com`, idDocument, answers: { ...PERSON }, completedSteps: [...STEPS_BEFORE_PASSWORD, 'divilo-password'], language: 'es' },
      new Date(),
    );
    await server.app.applications.save(created, { personType: 'freelance' }, new Date());
    const bearer = await server.app.onboardingTokens.issue(created.id);
    const storage = (await call(server, bearer, 'POST', 'storage-identity')).body as { identityId: string; token: string };
    const credentials = applicantCredentials(storage, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
    const s3 = new S3Client({ ...storageConfig(), forcePathStyle: true, credentials, maxAttempts: 1, requestChecksumCalculation: 'WHEN_REQUIRED' });
    return { id: created.id, bearer, identityId: storage.identityId, credentials, s3 };
  }
  type Applicant = Awaited<ReturnType<typeof applicant>>;

  async function report(who: Applicant, kind: string, name: string, bytes: Buffer, type: string) {
    const { key } = await uploadDocument(new Blob([new Uint8Array(bytes)], { type }), { key: `${kind}/${name}`, level: 'private', credentials: who.credentials, identityId: who.identityId, config: storageConfig() });
    return { key, ...(await call(server, who.bearer, 'POST', 'documents', { kind, key })) };
  }

  /** The three photos uploaded and checked: their keys and bytes. */
  async function photosOf(who: Applicant) {
    const files = { documentFront: await documentPhoto('png'), documentBack: await documentPhoto('jpeg', { portrait: false, seed: 3 }), selfie: await documentPhoto('jpeg', { seed: 11 }) };
    const keys: Record<string, string> = {};
    for (const [kind, bytes] of Object.entries(files)) {
      const answer = await report(who, kind, kind === 'documentFront' ? 'front.png' : `${kind}.jpg`, bytes, kind === 'documentFront' ? 'image/png' : 'image/jpeg');
      expect(answer.status).toBe(200);
      keys[kind] = answer.key;
    }
    return { keys: keys as Record<keyof typeof files, string>, files };
  }

  const frozenEntries = async (id: string) =>
    (await server.app.auditLog.listBySubject(`application:${id}`)).filter((entry) => entry.action === 'onboarding.evidence_frozen').map((entry) => entry.details as Record<string, unknown>);

  it('copies each photo with its SHA-256 when the check starts; after that neither the API nor the applicant\'s storage credentials change what the bank sees', async () => {
    const who = await applicant();
    const { keys, files } = await photosOf(who);
    expect((await call(server, who.bearer, 'POST', 'identity-check', keys)).status).toBe(200);

    const frozen = await frozenEntries(who.id);
    expect(frozen.map((entry) => entry.kind).sort()).toEqual(['documentBack', 'documentFront', 'selfie']);
    const s3 = serverS3();
    for (const entry of frozen) {
      const kind = entry.kind as keyof typeof files;
      expect(entry).toMatchObject({ source: keys[kind], size: files[kind].length, sha256: sha256(files[kind]) });
      expect(entry.key).toBe(`evidence/${who.id}/${kind}/${sha256(files[kind])}`);
      expect(sha256(await bytesAt(s3, entry.key as string))).toBe(sha256(files[kind]));
    }
    const front = frozen.find((entry) => entry.kind === 'documentFront')!;
    const selfie = frozen.find((entry) => entry.kind === 'selfie')!;

    // The applicant's own credentials reach their area only: the copies can be neither read, replaced nor deleted.
    const bucket = storageConfig().bucket;
    await expect(who.s3.send(new PutObjectCommand({ Bucket: bucket, Key: front.key as string, Body: Buffer.from('other bytes'), ContentType: 'image/png' }))).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(who.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: selfie.key as string }))).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(who.s3.send(new GetObjectCommand({ Bucket: bucket, Key: front.key as string }))).rejects.toMatchObject({ name: 'AccessDenied' });
    // Their own uploads they may still overwrite or delete: nothing the bank reads.
    const over = await documentPhoto('png', { seed: 99 });
    await who.s3.send(new PutObjectCommand({ Bucket: bucket, Key: keys.documentFront, Body: over, ContentType: 'image/png' }));
    await who.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: keys.selfie }));
    // Many keys at once, as the sweep of unreported files and the SDK's batch delete send them: each one audited.
    const deleted = await who.s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: [{ Key: keys.documentBack }, { Key: front.key as string }] } }));
    expect(deleted.Errors).toEqual([expect.objectContaining({ Key: front.key, Code: 'AccessDenied' })]);
    // Each of those changes is in the audit log as it happened: who, the key, the size and hash written.
    const changes = async (key: string) =>
      (await server.app.auditLog.listBySubject(storageAreaOf(key))).filter((entry) => (entry.details as { key?: string }).key === key).map(({ actor, action, details }) => ({ actor, action, details }));
    expect((await changes(keys.documentFront)).at(-1)).toEqual({
      actor: `storage-identity:${who.identityId}`,
      action: 'storage.PutObject',
      details: expect.objectContaining({ size: over.length, sha256: sha256(over) }),
    });
    expect((await changes(keys.selfie)).at(-1)).toMatchObject({ actor: `storage-identity:${who.identityId}`, action: 'storage.DeleteObject' });
    expect((await changes(keys.documentBack)).at(-1)).toMatchObject({ actor: `storage-identity:${who.identityId}`, action: 'storage.DeleteObject' });
    expect((await changes(front.key as string)).map((entry) => `${entry.actor} ${entry.action}`)).toEqual(['server storage.PutObject']);
    expect(sha256(await bytesAt(s3, front.key as string))).toBe(sha256(files.documentFront));
    expect(sha256(await bytesAt(s3, selfie.key as string))).toBe(sha256(files.selfie));

    // Through the API: another photo of a checked kind is refused, recorded nowhere, and the copy stays.
    const replaced = await report(who, 'documentFront', 'new-front.png', await documentPhoto('png', { seed: 42 }), 'image/png');
    expect(replaced).toMatchObject({ status: 409, body: { code: 'EVIDENCE_FROZEN' } });
    const listed = (await call(server, who.bearer, 'GET', 'documents')).body.documents as { kind: string; key: string }[];
    expect(listed.find((document) => document.kind === 'documentFront')?.key).toBe(keys.documentFront);
    const audit = await server.app.auditLog.listBySubject(`application:${who.id}`);
    expect(audit.some((entry) => entry.action === 'onboarding.document_refused' && (entry.details as { code?: string }).code === 'EVIDENCE_FROZEN')).toBe(true);
    // The modelo 036 is not relied on before the signature: it can still be replaced.
    expect((await report(who, 'model036', 'model036.pdf', plainPdf(), 'application/pdf')).status).toBe(200);
  });

  it('refuses to start the check on a photo overwritten in storage after it was checked, and starts nothing', async () => {
    const who = await applicant();
    const { keys } = await photosOf(who);
    await who.s3.send(new PutObjectCommand({ Bucket: storageConfig().bucket, Key: keys.selfie, Body: await documentPhoto('jpeg', { seed: 77 }), ContentType: 'image/jpeg' }));
    const started = await call(server, who.bearer, 'POST', 'identity-check', keys);
    expect(started.status).toBe(400);
    expect(started.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await server.app.applications.find(who.id))!.answers.identityCheck).toBeUndefined();
    expect(await frozenEntries(who.id)).toEqual([]);
  });

  it('the identity data the check compared can no longer change (the same answers again are fine); after a rejection both can', async () => {
    const who = await applicant();
    const { keys } = await photosOf(who);
    expect((await call(server, who.bearer, 'POST', 'identity-check', keys)).status).toBe(200);
    const changed = await call(server, who.bearer, 'POST', 'personal-info', { ...PERSON, firstName: 'Lucas' });
    expect(changed).toMatchObject({ status: 409, body: { code: 'IDENTITY_DATA_FROZEN' } });
    expect((await call(server, who.bearer, 'POST', 'personal-info', { ...PERSON, birthDate: '15/03/1990' })).body).toMatchObject({ code: 'IDENTITY_DATA_FROZEN' });
    expect((await call(server, who.bearer, 'POST', 'personal-info', PERSON)).status).toBe(200);
    expect((await server.app.applications.find(who.id))!.answers.firstName).toBe('Lucía');

    // A rejected check sends the applicant back to the photos: new ones, and corrected data, are taken.
    const current = (await server.app.applications.find(who.id))!;
    const check = current.answers.identityCheck as Record<string, unknown>;
    await server.app.applications.save(current, { answers: { ...current.answers, identityCheck: { ...check, status: 'rejected', reason: 'reviewer-rejected' } } }, new Date());
    expect((await call(server, who.bearer, 'POST', 'personal-info', { ...PERSON, firstName: 'Lucas' })).status).toBe(200);
    expect((await report(who, 'selfie', 'again.jpg', await documentPhoto('jpeg', { seed: 12 }), 'image/jpeg')).status).toBe(200);
  });

  it('a photo reported while the check starts is either refused or makes the check start on it: the evidence is always what the check saw', async () => {
    for (let round = 0; round < 3; round += 1) {
      const who = await applicant();
      const { keys } = await photosOf(who);
      const next = await documentPhoto('png', { seed: 200 + round });
      const { key } = await uploadDocument(new Blob([new Uint8Array(next)], { type: 'image/png' }), {
        key: `documentFront/race-${round}.png`,
        level: 'private',
        credentials: who.credentials,
        identityId: who.identityId,
        config: storageConfig(),
      });
      const [reported, started] = await Promise.all([
        call(server, who.bearer, 'POST', 'documents', { kind: 'documentFront', key }),
        call(server, who.bearer, 'POST', 'identity-check', keys),
      ]);
      const documents = await server.app.onboardingDocuments.list(who.id);
      const front = documents.find((document) => document.kind === 'documentFront')!;
      if (started.status === 200) {
        // The check started on the first front: the new one was refused, the record and its copy are the first.
        expect(reported.body).toMatchObject({ code: 'EVIDENCE_FROZEN' });
        expect(front.key).toBe(keys.documentFront);
        expect(front.sha256).toBe(sha256(await bytesAt(serverS3(), front.evidenceKey!)));
      } else {
        // The new front came first: the check named a photo no longer on record, and nothing is frozen.
        expect(reported.status).toBe(200);
        expect(started.body).toMatchObject({ code: 'VALIDATION_FAILED' });
        expect(front).toMatchObject({ key });
        expect(front.evidenceKey).toBeUndefined();
        expect((await server.app.applications.find(who.id))!.answers.identityCheck).toBeUndefined();
      }
    }
  });

  it('at signature the other documents are frozen too; the record page names each by its SHA-256; then no credentials and no document are given', async () => {
    const number = 45_000_000 + applicants;
    const idDocument = `${number}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`;
    const { id, token } = await readyToSign(server, idDocument);
    const storage = (await call(server, token, 'POST', 'storage-identity')).body as { identityId: string; token: string };
    const credentials = applicantCredentials(storage, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
    const pdf = plainPdf({ size: 3000 });
    const { key } = await uploadDocument(new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), { key: 'model036/m.pdf', level: 'private', credentials, identityId: storage.identityId, config: storageConfig() });
    expect((await call(server, token, 'POST', 'documents', { kind: 'model036', key })).status).toBe(200);

    expect((await consentAndSign(server, token)).status).toBe(200);
    expect(await frozenEntries(id)).toEqual([expect.objectContaining({ kind: 'model036', source: key, sha256: sha256(pdf), size: pdf.length })]);
    const signed = await server.app.contracts.pdf(id);
    const record = (await pageTexts(signed!)).join('\n');
    expect(record).toContain('Documentos aportados (SHA-256)');
    expect(record).toContain(sha256(pdf));

    // A signed application is closed to its token: neither storage credentials nor another document.
    expect(await call(server, token, 'POST', 'storage-identity')).toMatchObject({ status: 409, body: { code: 'APPLICATION_CLOSED' } });
    expect(await call(server, token, 'POST', 'documents', { kind: 'model036', key })).toMatchObject({ status: 409, body: { code: 'APPLICATION_CLOSED' } });
  });

  it("a decision locks the application's evidence for the law's time: ten years for a customer, five for a refusal; not even the server's credentials remove it", async () => {
    const s3 = serverS3();
    const decided = async (decide: (id: string) => Promise<unknown>) => {
      const number = 46_000_000 + (applicants += 1);
      const { id, token } = await readyToSign(server, `${number}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`);
      const storage = (await call(server, token, 'POST', 'storage-identity')).body as { identityId: string; token: string };
      const credentials = applicantCredentials(storage, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
      const { key } = await uploadDocument(new Blob([new Uint8Array(plainPdf({ size: 2000 }))], { type: 'application/pdf' }), { key: 'model036/m.pdf', level: 'private', credentials, identityId: storage.identityId, config: storageConfig() });
      expect((await call(server, token, 'POST', 'documents', { kind: 'model036', key })).status).toBe(200);
      expect((await consentAndSign(server, token)).status).toBe(200);
      const [frozen] = await frozenEntries(id);
      // Signed, not decided yet: nothing is locked.
      await expect(s3.send(new GetObjectRetentionCommand({ Bucket: storageConfig().bucket, Key: String(frozen.key) }))).rejects.toMatchObject({ name: 'NoSuchObjectLockConfiguration' });
      const before = new Date();
      await decide(id);
      const { Retention } = await s3.send(new GetObjectRetentionCommand({ Bucket: storageConfig().bucket, Key: String(frozen.key) }));
      await expect(s3.send(new DeleteObjectCommand({ Bucket: storageConfig().bucket, Key: String(frozen.key) }))).rejects.toMatchObject({ name: 'AccessDenied' });
      return { mode: Retention?.Mode, years: Math.round((Retention!.RetainUntilDate!.getTime() - before.getTime()) / (365.25 * 86_400_000)) };
    };
    try {
      const deps = reviewDependenciesOf(server);
      expect(await decided((id) => approveApplication(deps, id, 'marta', new Date()))).toEqual({ mode: 'COMPLIANCE', years: 10 });
      expect(await decided((id) => rejectApplication(deps, id, 'Documents do not match', 'marta', new Date()))).toEqual({ mode: 'COMPLIANCE', years: 5 });
    } finally {
      s3.destroy();
    }
  });

  it('a document reported while the contract is signed is either refused or signed with: the record page names the document on record', async () => {
    for (let round = 0; round < 2; round += 1) {
      const number = 46_000_000 + round * 10 + applicants;
      const idDocument = `${number}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`;
      const { id, token } = await readyToSign(server, idDocument);
      const storage = (await call(server, token, 'POST', 'storage-identity')).body as { identityId: string; token: string };
      const credentials = applicantCredentials(storage, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
      const put = (name: string, bytes: Buffer) =>
        uploadDocument(new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), { key: `model036/${name}`, level: 'private', credentials, identityId: storage.identityId, config: storageConfig() });
      const first = await put('first.pdf', plainPdf({ size: 2500 }));
      expect((await call(server, token, 'POST', 'documents', { kind: 'model036', key: first.key })).status).toBe(200);
      const second = await put('second.pdf', plainPdf({ size: 3500 }));
      expect((await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true })).status).toBe(200);
      const code = await lastCode(server.app, PHONE);
      const [reported, signedAnswer] = await Promise.all([
        call(server, token, 'POST', 'documents', { kind: 'model036', key: second.key }),
        call(server, token, 'POST', 'contract/sign', { code }),
      ]);
      expect(signedAnswer.status).toBe(200);
      const [document] = await server.app.onboardingDocuments.list(id);
      if (reported.status === 200) expect(document.key).toBe(second.key);
      else {
        expect(reported.body).toMatchObject({ code: 'EVIDENCE_FROZEN' });
        expect(document.key).toBe(first.key);
      }
      expect(document.sha256).toBe(sha256(await bytesAt(serverS3(), document.evidenceKey!)));
      expect((await pageTexts((await server.app.contracts.pdf(id))!)).join('\n')).toContain(document.sha256);
    }
  });

  it("npm run admin show links to the copies and says plainly when one does not match its SHA-256 or is missing", async () => {
    const who = await applicant();
    const { keys, files } = await photosOf(who);
    expect((await call(server, who.bearer, 'POST', 'identity-check', keys)).status).toBe(200);
    const deps = async () => ({ ...reviewDependenciesOf(server, { links: true }), close: async () => undefined });
    const show = async () => {
      const lines: string[] = [];
      // On a terminal, where the links are shown (out and the terminal are then the same output).
      const print = (line: string) => lines.push(line);
      await adminProgram(deps, print, 140, print).parseAsync(['node', 'admin', 'show', who.id]);
      return lines;
    };
    const first = await show();
    const shown = JSON.parse(first.join('\n')) as { documents: { kind: string; key: string; sha256: string; evidence: string; link: string }[] };
    expect(shown.documents.map((document) => [document.kind, document.evidence])).toEqual([
      ['documentBack', 'matches'],
      ['documentFront', 'matches'],
      ['selfie', 'matches'],
    ]);
    const front = shown.documents.find((document) => document.kind === 'documentFront')!;
    expect(front.key).toMatch(new RegExp(`^evidence/${who.id}/documentFront/`));
    expect(sha256(Buffer.from(await (await fetch(front.link)).arrayBuffer()))).toBe(sha256(files.documentFront));

    // Someone with access to the bucket changes one copy and removes another.
    const s3 = serverS3();
    const selfie = shown.documents.find((document) => document.kind === 'selfie')!;
    await s3.send(new PutObjectCommand({ Bucket: storageConfig().bucket, Key: front.key, Body: randomBytes(843), ContentType: 'image/png' }));
    await s3.send(new DeleteObjectCommand({ Bucket: storageConfig().bucket, Key: selfie.key }));
    const warnings = (await show()).filter((line) => line.startsWith('WARNING'));
    expect(warnings).toEqual([
      `WARNING: the documentFront evidence (${front.key}) does not match the SHA-256 recorded when it was frozen (${front.sha256}): do not rely on it.`,
      `WARNING: the selfie evidence (${selfie.key}) is missing from storage.`,
    ]);
  });
});
