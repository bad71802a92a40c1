// An applicant's documents end to end: storage identity from the identity pool, upload with the browser's module
// (unmodified AWS SDK), then the server's check, all against the real server on a port.
import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { embeddedStorageCredentials } from '../../server/plugins/storage';
import { loadServerSecret } from '../../server/services/serverSecret';
import { applicantCredentials, uploadDocument } from '../../src/documentStorage/uploadDocument';
import { describeEachDialect, openTestDatabase } from './helpers';
import { plainPdf } from './pdfs';
import { startLoginServer } from './login/loginServer';

const MAX_BYTES = 64 * 1024;
const pdf = (size = 2048) => plainPdf({ size });
const blobOf = (bytes: Buffer, type: string) => new Blob([new Uint8Array(bytes)], { type });

interface Applicant {
  bearer: string;
  identityId: string;
  token: string;
}

describeEachDialect("an applicant's documents", (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServer>>;
  let base: string;

  beforeAll(async () => {
    server = await startLoginServer({ DOCUMENT_MAX_BYTES: String(MAX_BYTES) }, { database: await openTestDatabase(dialect) });
    base = server.base;
  });
  afterAll(async () => {
    await server.close();
    await (server.database as { destroy(): Promise<void> }).destroy();
  });

  const api = (path: string, bearer: string | undefined, body?: unknown) =>
    fetch(`${base}/api/onboarding-management-private/${path}`, {
      method: body === undefined && path === 'documents' ? 'GET' : 'POST',
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** A real application per name (the same one for the same name), as registration leaves it. */
  const applications = new Map<string, string>();
  async function applicationNamed(name: string): Promise<string> {
    if (!applications.has(name)) {
      const created = await server.app.applications.create({ email: `${name}-${dialect}@example.com`, idDocument: name, answers: {}, completedSteps: ['signUp', 'reg-code'], language: 'es' }, new Date());
      applications.set(name, created.id);
    }
    return applications.get(name)!;
  }

  async function applicant(name: string): Promise<Applicant> {
    const bearer = await server.app.onboardingTokens.issue(await applicationNamed(name));
    const response = await api('storage-identity', bearer);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { identityId: string; token: string; expiresIn: number; maxDocumentBytes: number };
    expect(body.maxDocumentBytes).toBe(MAX_BYTES);
    return { bearer, identityId: body.identityId, token: body.token };
  }

  const storageConfig = () => ({ region: server.config.storage.region, bucket: server.config.storage.bucket, endpoint: `${base}/s3` });
  const credentialsOf = (who: Applicant) => applicantCredentials(who, { region: server.config.identity.region, endpoint: `${base}/cognito` });

  function upload(who: Applicant, key: string, file: Blob, onProgress?: (fraction: number) => void) {
    return uploadDocument(file, { key, level: 'private', credentials: credentialsOf(who), identityId: who.identityId, config: storageConfig(), onProgress });
  }

  /** An S3 client with the applicant's own temporary credentials, as the browser has. */
  const clientOf = (who: Applicant) =>
    new S3Client({ ...storageConfig(), forcePathStyle: true, credentials: credentialsOf(who), maxAttempts: 1, requestChecksumCalculation: 'WHEN_REQUIRED' });

  /** An S3 client with the server's own credentials (derived as the app derives them). */
  const serverClient = () =>
    new S3Client({ ...storageConfig(), forcePathStyle: true, maxAttempts: 1, credentials: embeddedStorageCredentials(loadServerSecret(server.config.dataDir, server.config.serverSecret)) });

  /** Whether the key is in storage, asked with the server's own credentials. */
  async function stored(key: string): Promise<boolean> {
    const client = serverClient();
    try {
      await client.send(new HeadObjectCommand({ Bucket: storageConfig().bucket, Key: key }));
      return true;
    } catch (error) {
      if ((error as Error).name === 'NotFound') return false;
      throw error;
    }
  }

  it('gives each application one storage identity of its own, only with a valid onboarding token', async () => {
    const first = await applicant('application-identity');
    const again = await applicant('application-identity');
    const other = await applicant('application-other');
    expect(again.identityId).toBe(first.identityId);
    expect(other.identityId).not.toBe(first.identityId);
    expect((await api('storage-identity', undefined)).status).toBe(400);
    const forged = await api('storage-identity', `${first.bearer.slice(0, -2)}xx`);
    expect(forged.status).toBe(401);
    expect(await forged.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('uploads a PDF with progress to 100%, checks it and records it, then lists it', async () => {
    const who = await applicant('application-upload');
    const progress: number[] = [];
    const document = await upload(who, 'model036/first.pdf', blobOf(pdf(), 'application/pdf'), (fraction) => progress.push(fraction));
    expect(progress.at(-1)).toBe(1);
    expect(document.key).toBe(`private/${who.identityId}/model036/first.pdf`);

    const response = await api('documents', who.bearer, { kind: 'model036', key: document.key });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ kind: 'model036', key: document.key, size: 2048 });
    const listed = (await (await api('documents', who.bearer)).json()) as { documents: { kind: string; key: string; size: number }[] };
    expect(listed.documents).toEqual([expect.objectContaining({ kind: 'model036', key: document.key, size: 2048 })]);
    const audit = await server.app.auditLog.listBySubject(`application:${await applicationNamed('application-upload')}`);
    expect(audit.map((entry) => entry.action)).toContain('onboarding.document_uploaded');
  });

  it('refuses what is not a PDF, does not parse, holds a script, is empty or too large, removes it and keeps the document recorded before', async () => {
    const who = await applicant('application-refusals');
    const good = await upload(who, 'model200/good.pdf', blobOf(pdf(), 'application/pdf'));
    expect((await api('documents', who.bearer, { kind: 'model200', key: good.key })).status).toBe(200);

    const cases: [string, Blob, number, string][] = [
      ['picture.pdf', blobOf(Buffer.from('\x89PNG\r\n\x1a\n rest of a picture'), 'application/pdf'), 422, 'DOCUMENT_NOT_PDF'],
      ['typed-as-image.pdf', blobOf(pdf(), 'image/png'), 422, 'DOCUMENT_NOT_PDF'],
      ['html.pdf', blobOf(Buffer.from('%PDF-1.7\n<html><script>alert(document.domain)</script></html>'), 'application/pdf'), 422, 'DOCUMENT_NOT_DECODABLE'],
      ['script.pdf', blobOf(plainPdf({ catalog: '/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>' }), 'application/pdf'), 422, 'DOCUMENT_ACTIVE_CONTENT'],
      ['empty.pdf', blobOf(Buffer.alloc(0), 'application/pdf'), 422, 'DOCUMENT_EMPTY'],
      ['large.pdf', blobOf(pdf(MAX_BYTES + 1), 'application/pdf'), 422, 'DOCUMENT_TOO_LARGE'],
    ];
    for (const [name, file, status, code] of cases) {
      let bad = { key: `private/${who.identityId}/model200/${name}` };
      if (code === 'DOCUMENT_TOO_LARGE') {
        // The embedded storage refuses it from the applicant; on Amazon S3 nothing would, so it is put there as
        // the applicant could put it there, and the report must refuse it.
        await expect(upload(who, `model200/${name}`, file)).rejects.toMatchObject({ name: 'EntityTooLarge' });
        await serverClient().send(new PutObjectCommand({ Bucket: storageConfig().bucket, Key: bad.key, Body: new Uint8Array(await file.arrayBuffer()), ContentType: 'application/pdf' }));
      } else bad = await upload(who, `model200/${name}`, file);
      const response = await api('documents', who.bearer, { kind: 'model200', key: bad.key });
      expect({ name, status: response.status }).toEqual({ name, status });
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ code });
      if (code === 'DOCUMENT_TOO_LARGE') expect(body.maxBytes).toBe(MAX_BYTES);
      expect(await stored(bad.key)).toBe(false);
    }
    const missing = await api('documents', who.bearer, { kind: 'model200', key: `private/${who.identityId}/model200/never-uploaded.pdf` });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'DOCUMENT_NOT_FOUND' });

    const listed = (await (await api('documents', who.bearer)).json()) as { documents: { key: string }[] };
    expect(listed.documents.map((document) => document.key)).toEqual([good.key]);
    expect(await stored(good.key)).toBe(true);
  });

  it('replaces a document of the same kind only once the new one passes, removing the old file', async () => {
    const who = await applicant('application-replace');
    const first = await upload(who, 'deeds/v1.pdf', blobOf(pdf(), 'application/pdf'));
    await api('documents', who.bearer, { kind: 'companyDeeds', key: first.key });
    const second = await upload(who, 'deeds/v2.pdf', blobOf(pdf(4096), 'application/pdf'));
    expect((await api('documents', who.bearer, { kind: 'companyDeeds', key: second.key })).status).toBe(200);
    const listed = (await (await api('documents', who.bearer)).json()) as { documents: { key: string; size: number }[] };
    expect(listed.documents).toEqual([expect.objectContaining({ key: second.key, size: 4096 })]);
    expect(await stored(first.key)).toBe(false);
  });

  it("keeps each applicant to their own area: another's key is refused and left alone, and cannot be read", async () => {
    const owner = await applicant('application-owner');
    const intruder = await applicant('application-intruder');
    const document = await upload(owner, 'model036/mine.pdf', blobOf(pdf(), 'application/pdf'));
    const response = await api('documents', intruder.bearer, { kind: 'model036', key: document.key });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'DOCUMENT_NOT_OWN' });
    expect(await stored(document.key)).toBe(true);
    await expect(clientOf(intruder).send(new GetObjectCommand({ Bucket: storageConfig().bucket, Key: document.key }))).rejects.toMatchObject({
      name: 'AccessDenied',
    });
    await expect(
      clientOf(intruder).send(new PutObjectCommand({ Bucket: storageConfig().bucket, Key: `private/${owner.identityId}/model036/mine.pdf`, Body: 'x' })),
    ).rejects.toMatchObject({ name: 'AccessDenied' });

    for (const key of [`private/${owner.identityId}/../x.pdf`, `public/x.pdf`, `private/${owner.identityId}//x.pdf`]) {
      const malformed = await api('documents', owner.bearer, { kind: 'model036', key });
      expect({ key, status: malformed.status }).toEqual({ key, status: 400 });
    }
    const unknownKind = await api('documents', owner.bearer, { kind: 'passport', key: document.key });
    expect(unknownKind.status).toBe(400);
    expect(await unknownKind.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses a key from an application that never had a storage identity, and gives it none', async () => {
    const owner = await applicant('application-key-owner');
    const document = await upload(owner, 'model036/theirs.pdf', blobOf(pdf(), 'application/pdf'));
    const identities = () => server.app.db.withTables<{ cognito_identities: { identity_id: string } }>().selectFrom('cognito_identities').select('identity_id').execute();
    const before = (await identities()).length;
    const bearer = await server.app.onboardingTokens.issue(await applicationNamed('application-without-identity'));
    const response = await api('documents', bearer, { kind: 'model036', key: document.key });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'DOCUMENT_NOT_OWN' });
    expect((await identities()).length).toBe(before);
    expect(await stored(document.key)).toBe(true);
  });

  it("copies a checked document to the evidence area only as a create: the same bytes again keep the first copy, copies at the same moment agree, another object there is never replaced", async () => {
    const who = await applicant('application-evidence');
    const bytes = pdf(3072);
    const document = await upload(who, 'model036/kept.pdf', blobOf(bytes, 'application/pdf'));
    const applicationId = await applicationNamed('application-evidence');
    const { etag } = await server.app.documents.check(applicationId, document.key, 'model036');
    const client = serverClient();
    const evidenceOf = (key: string) => client.send(new HeadObjectCommand({ Bucket: storageConfig().bucket, Key: key }));

    const first = await server.app.documents.preserve(applicationId, 'model036', document.key, etag);
    expect(first.evidenceKey).toBe(`evidence/${applicationId}/model036/${first.sha256}`);
    const written = await evidenceOf(first.evidenceKey);
    const writes = async () => (await server.app.auditLog.listBySubject(`storage:evidence/${applicationId}`)).filter((entry) => entry.action === 'storage.PutObject').length;
    expect(await writes()).toBe(1);
    // Frozen again (a second freeze, or four at the same moment): the copy there is the one kept, nothing rewritten.
    const again = await Promise.all(Array.from({ length: 4 }, () => server.app.documents.preserve(applicationId, 'model036', document.key, etag)));
    expect(again).toEqual(Array.from({ length: 4 }, () => first));
    expect(await writes()).toBe(1);
    expect((await evidenceOf(first.evidenceKey)).LastModified).toEqual(written.LastModified);

    // Something else at the key a copy would take (written there by other means): refused, and left as it is.
    const otherBytes = pdf(4096);
    const other = await upload(who, 'deeds/other.pdf', blobOf(otherBytes, 'application/pdf'));
    const checked = await server.app.documents.check(applicationId, other.key, 'companyDeeds');
    const squatted = `evidence/${applicationId}/companyDeeds/${createHash('sha256').update(otherBytes).digest('hex')}`;
    await client.send(new PutObjectCommand({ Bucket: storageConfig().bucket, Key: squatted, Body: 'not the document' }));
    await expect(server.app.documents.preserve(applicationId, 'companyDeeds', other.key, checked.etag)).rejects.toThrow(`the evidence at ${squatted} does not match its recorded SHA-256`);
    const kept = await client.send(new GetObjectCommand({ Bucket: storageConfig().bucket, Key: squatted }));
    expect(await kept.Body!.transformToString()).toBe('not the document');
  });

  it('refuses temporary credentials past their expiry as ExpiredToken', async () => {
    const who = await applicant('application-expiry');
    const credentials = await credentialsOf(who)();
    const client = new S3Client({ ...storageConfig(), forcePathStyle: true, credentials, maxAttempts: 1 });
    const key = `private/${who.identityId}/early.pdf`;
    await client.send(new PutObjectCommand({ Bucket: storageConfig().bucket, Key: key, Body: pdf(), ContentType: 'application/pdf' }));
    await server.app.db
      .withTables<{ cognito_credentials: { access_key_id: string; expires_at: string } }>()
      .updateTable('cognito_credentials')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('access_key_id', '=', credentials.accessKeyId)
      .execute();
    await expect(client.send(new GetObjectCommand({ Bucket: storageConfig().bucket, Key: key }))).rejects.toMatchObject({ name: 'ExpiredToken' });
  });
});
