// The whole journey of a freelancer as it runs on AWS, against an AWS emulator (moto) with IAM enforced: two
// server processes on one PostgreSQL schema and one Redis, each request of the test going to the other process.
// Sign-up (captcha, e-mail code), the wizard's steps, the modelo 036 and the identity photos uploaded to the
// bucket with the identity pool's credentials, the bank's identity check and approval with `npm run admin` (its
// first approval cut short by an unreachable user pool, finished by the next run), the contract's signature,
// then the customer's SRP sign-in and SMS code; before the approval, the same sign-in is refused by the server. Every
// SMS goes through the emulator's SNS and its code is read there; e-mails stay in the outbox (moto has no SMTP).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, ListObjectVersionsCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { AuthenticationDetails, CognitoUser, CognitoUserPool } from 'amazon-cognito-identity-js';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { applicantCredentials, uploadDocument } from '../../src/documentStorage/uploadDocument';
import { freePort, postgresUrlInSchema } from '../server/helpers';
import { documentPhoto, realSelfie } from '../server/images';
import { passCaptcha, verificationSignature } from '../server/login/loginServer';
import { plainPdf } from '../server/pdfs';
import { loadBalancer, redisAnswers, startServerProcess, type LoadBalancer, type ServerProcess } from '../server/processes';
import { deployToMoto, describeWhenAvailable, motoUnavailable, REGION, SENDER_ID, serverEnvOnMoto, startMoto, synthesizedTemplate, textMessages, type Deployment, type Moto } from './moto';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const unavailable = motoUnavailable() ?? (redisAnswers(redisUrl) ? undefined : `no Redis answers at ${new URL(redisUrl).host} (REDIS_URL)`);
const describeOnMoto = describeWhenAvailable('AWS emulator journey', unavailable);

const APPLICANT = { id: '23456789D', email: 'lucia.aws@example.com', phone: '+34612345601', password: 'Divilo-Aws-2026!' };
const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: 'Núñez', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };
const ACTIVITY = { selfEmployedId: APPLICANT.id, selfEmployedActivity: '1.673.2', selfEmployedDate: '01/02/2024', selfEmployedAtaCode: '', promotionalCode: '' };
const ADDRESS = { selfEmployedFiscalAddress: 'Calle Mayor 1', selfEmployedFiscalAdditionalAddress: '2º B', selfEmployedFiscalPostalCode: '28013', selfEmployedFiscalCity: 'Madrid', selfEmployedFiscalCountry: 'ES' };
const MORE = { website: 'https://lucia.example', countriesWhereOperate: ['ES'], diviloProduct: 'account', foundsOrigin: 'business-activity', assetsOrigin: 'savings', politicalPosition: false };

// Two processes started, the template synthesized and deployed, the face detector on two photos, four admin runs.
jest.setTimeout(300_000);

describeOnMoto('the whole journey on "AWS" (moto, IAM enforced), two server processes', () => {
  const postgres = process.env.DATABASE_URL!;
  const schema = `journey_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const keyPrefix = `divilo-journey-${randomUUID().slice(0, 8)}:`;
  let moto: Moto;
  let deployment: Deployment;
  let processes: ServerProcess[] = [];
  let entrance: LoadBalancer;
  let base: string;
  let api: string;
  let dataDir: string;
  let serverEnv: Record<string, string>;

  const onPostgres = async <T>(work: (client: Client) => Promise<T>) => {
    const client = new Client({ connectionString: postgres });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')![1];
  /** The code of the newest e-mail to `email`, from the outbox. */
  const lastEmailCode = (email: string) =>
    onPostgres(async (client) => {
      const { rows } = await client.query<{ text: string }>(`select text from "${schema}".outbox where recipient = $1 and channel = 'email' order by id desc limit 1`, [email]);
      return codeIn(rows[0]?.text);
    });
  /** Every SMS SNS was asked to send to `phone`, oldest first. */
  const textsTo = async (phone: string) => (await textMessages(moto)).filter((sms) => sms.phoneNumber === phone);
  /** The code of the newest SMS to `phone`, as SNS received it. */
  const lastSmsCode = async (phone: string) => codeIn((await textsTo(phone)).at(-1)?.text);

  beforeAll(async () => {
    moto = await startMoto();
    const ports = [await freePort(), await freePort()];
    entrance = await loadBalancer(ports);
    base = `http://127.0.0.1:${entrance.port}`;
    api = `${base}/api`;
    deployment = await deployToMoto(moto, synthesizedTemplate(), base);
    await onPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-journey-'));
    serverEnv = {
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: postgresUrlInSchema(postgres, schema),
      SERVER_SECRET: Buffer.alloc(32, 7).toString('base64'),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      ...serverEnvOnMoto(moto, deployment),
      IDENTITY_PROVIDER: 'manual',
      RATE_LIMIT_MAX: '5000',
      RATE_LIMIT_SENSITIVE_MAX: '1000',
      LOG_LEVEL: 'warn',
    };
    processes = await Promise.all(ports.map((port) => startServerProcess({ ...serverEnv, PORT: String(port) })));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((server) => server.stop()));
    await entrance?.close();
    await moto?.stop();
    const redis = new Redis(redisUrl, { lazyConnect: true });
    await redis.connect();
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    await onPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm run admin` on the servers' configuration (their database and the AWS credentials of the machine), with `env` changed. */
  const admin = (args: string[], env: Record<string, string> = {}) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', path.join('scripts', 'admin.ts'), '--reviewer', 'marta', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1', ...serverEnv, ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  const post = async (route: string, token: string, body?: unknown) => {
    const response = await fetch(`${api}/onboarding-management-private/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** The browser's sign-in and session: SRP with the unmodified client at the configuration the server hands out, then create-session. */
  async function startSession(username: string, password: string) {
    const { identity } = (await (await fetch(`${base}/config.json`)).json()) as { identity: { userPoolId: string; clientId: string; endpoint?: string } };
    const items = new Map<string, string>();
    const storage = { setItem: (k: string, v: string) => void items.set(k, v), getItem: (k: string) => items.get(k) ?? null, removeItem: (k: string) => void items.delete(k), clear: () => items.clear() };
    const pool = new CognitoUserPool({ UserPoolId: identity.userPoolId, ClientId: identity.clientId, endpoint: identity.endpoint, Storage: storage });
    const user = new CognitoUser({ Username: username, Pool: pool, Storage: storage });
    const idToken = await new Promise<string>((resolve, reject) =>
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), { onSuccess: (session) => resolve(session.getIdToken().getJwtToken()), onFailure: reject }),
    );
    const sessionId = randomUUID();
    await passCaptcha(api, sessionId);
    const started = await fetch(`${api}/user-authorization-management/create-session`, { method: 'POST', headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId } });
    return { sessionId, started };
  }

  it('signs up, fills the wizard, uploads to the bucket, is checked, signs, is approved (an interrupted run finished by the next) and logs in', async () => {
    // Sign-up: the captcha, then the e-mail code.
    const sessionId = randomUUID();
    await passCaptcha(api, sessionId);
    const registered = await fetch(`${api}/onboarding-management/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: APPLICANT.email, idType: 'nif', id: APPLICANT.id, privacyPolicy: true, precontractualInformation: true, sessionId }),
    });
    expect(registered.status).toBe(200);
    const confirmed = await post('email/verify', ((await registered.json()) as { token: string }).token, { code: await lastEmailCode(APPLICANT.email) });
    expect(confirmed.body).toMatchObject({ next: 'personal-info' });
    const token = confirmed.body.token as string;
    const id = (confirmed.body.application as { id: string }).id;

    // The wizard's steps.
    expect((await post('personal-info', token, PERSON)).status).toBe(200);
    expect((await post('phone', token, { telephoneCountry: 'ES', telephoneNumber: APPLICANT.phone.slice(3) })).body).toMatchObject({ next: 'confirm-telephone' });
    expect((await post('phone/verify', token, { code: await lastSmsCode(APPLICANT.phone) })).body).toMatchObject({ next: 'register-as' });
    expect((await post('person-type', token, { personType: 'freelance' })).body).toMatchObject({ next: 'requirements-freelance' });
    expect((await post('legalperson/freelance', token, ACTIVITY)).body).toMatchObject({ next: 'fiscal-address' });
    expect((await post('legalperson/freelance/postal-address', token, ADDRESS)).body).toMatchObject({ next: 'tax-registration-income' });

    // Documents go straight to the bucket with the identity pool's credentials (the applicants' role, own area only).
    const storageIdentity = (await post('storage-identity', token)).body as { identityId: string; token: string };
    const credentials = applicantCredentials(storageIdentity, { region: REGION, endpoint: moto.endpoint });
    const bucket = { region: REGION, bucket: deployment.bucket, endpoint: moto.endpoint };
    const upload = async (kind: string, name: string, bytes: Buffer, type: string) => {
      const { key } = await uploadDocument(new Blob([new Uint8Array(bytes)], { type }), { key: `${kind}/${name}`, level: 'private', identityId: storageIdentity.identityId, credentials, config: bucket });
      const checked = await post('documents', token, { kind, key });
      expect(checked).toMatchObject({ status: 200, body: { kind, key } });
      return key;
    };
    // Another identity's area is refused by IAM itself (the applicants' role names only the caller's own).
    await expect(
      uploadDocument(new Blob([new Uint8Array(plainPdf())], { type: 'application/pdf' }), {
        key: 'model036/theirs.pdf',
        level: 'private',
        identityId: `${REGION}:00000000-0000-4000-8000-000000000000`,
        credentials,
        config: bucket,
      }),
    ).rejects.toMatchObject({ name: 'AccessDenied' });
    const model036 = await upload('model036', 'modelo-036.pdf', plainPdf(), 'application/pdf');
    expect((await post('legalperson/freelance/tax', token, { selfEmployedTax: 'direct-simplified', model036 })).body).toMatchObject({ next: 'tell-us-more-freelance' });
    expect((await post('legalperson/freelance/moreinfo', token, MORE)).body).toMatchObject({ next: 'divilo-password' });
    expect((await post('password', token, { diviloPassword: APPLICANT.password, diviloPasswordConfirmation: APPLICANT.password })).status).toBe(200);

    // The identity check: the photos to the bucket, the check handed to the bank.
    const photos = {
      documentFront: await upload('documentFront', 'front.png', await documentPhoto('png'), 'image/png'),
      documentBack: await upload('documentBack', 'back.jpg', await documentPhoto('jpeg', { portrait: false, seed: 3 }), 'image/jpeg'),
      selfie: await upload('selfie', 'selfie.jpg', await realSelfie(), 'image/jpeg'),
    };
    expect((await post('identity-check', token, photos)).status).toBe(200);
    expect(await admin(['identity', id, 'approve'])).toMatchObject({ code: 0, stdout: `Identity of ${id} approved.\n` });

    // The contract, signed with the SMS code.
    expect((await post('contract/consent', token, { electronicIdentification: true })).status).toBe(200);
    expect((await post('contract/sign', token, { code: await lastSmsCode(APPLICANT.phone) })).status).toBe(200);

    // Pending review: the pool lets the password through (moto runs no Lambda), the server refuses the session.
    const pending = await startSession(APPLICANT.id, APPLICANT.password);
    expect(pending.started.status).toBe(403);
    expect(await pending.started.json()).toMatchObject({ code: 'ONBOARDING_NOT_COMPLETE', reason: 'ERR-2809' });

    // The approval, its run cut short: the user pool at a closed port.
    const interrupted = await admin(['approve', id], { AWS_ENDPOINT_URL: `http://127.0.0.1:${await freePort()}` });
    expect(interrupted.code).toBe(1);
    expect(interrupted.stderr).toContain(`Application ${id} was approved, but evidence-retention failed (`);
    expect(interrupted.stderr).toContain('effects pending: evidence-retention, user-pool-status, notice-email. Run the command again to finish them');
    expect(interrupted.stderr).not.toMatch(/\n\s+at /);
    const shown = JSON.parse((await admin(['show', id])).stdout) as { status: string; effectsPending: { effect: string }[]; documents: { kind: string }[] };
    expect(shown.status).toBe('approved');
    expect(shown.effectsPending.map((effect) => effect.effect)).toEqual(['evidence-retention', 'user-pool-status', 'notice-email']);
    expect(shown.documents.map((document) => document.kind).sort()).toEqual(['documentBack', 'documentFront', 'model036', 'selfie']);
    expect((await startSession(APPLICANT.id, APPLICANT.password)).started.status).toBe(403);

    // The next run finishes it: the pool opens, the e-mail goes once.
    expect(await admin(['approve', id])).toMatchObject({ stderr: '', code: 0, stdout: `Application ${id} was approved already; now done: evidence-retention, user-pool-status, notice-email.\n` });
    const notices = await onPostgres(async (client) => (await client.query(`select id from "${schema}".outbox where recipient = $1 and purpose = 'notice'`, [APPLICANT.email])).rows);
    expect(notices).toHaveLength(1);

    // The customer signs in: SRP, then the SMS code.
    const customer = await startSession(APPLICANT.id, APPLICANT.password);
    expect(customer.started.status).toBe(200);
    const { token: loginToken } = (await customer.started.json()) as { token: string };
    const session = await fetch(`${api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { 'x-divilo-session-id': customer.sessionId, 'x-divilo-verification-signature': verificationSignature(loginToken, await lastSmsCode(APPLICANT.phone)) },
    });
    expect(session.status).toBe(201);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await fetch(`${api}/user-authorization-management/get-session`, { headers: { cookie } })).status).toBe(200);

    // Every SMS of the journey went through SNS, from the sender ID, in order: the phone's code, the signature's, the
    // login's; none to the outbox.
    const texts = await textsTo(APPLICANT.phone);
    expect(texts.map((sms) => sms.text)).toEqual([expect.stringContaining('confirmar este teléfono'), expect.stringContaining('firmar tu contrato'), expect.stringContaining('para entrar')]);
    for (const sms of texts) expect(sms.attributes).toMatchObject({ 'AWS.SNS.SMS.SMSType': { Value: 'Transactional' }, 'AWS.SNS.SMS.SenderID': { Value: SENDER_ID } });
    expect((await onPostgres((client) => client.query(`select id from "${schema}".outbox where channel = 'sms'`))).rows).toEqual([]);

    // The evidence the servers wrote under the deployed role (creates, If-None-Match: *), which lets nothing replace or
    // remove it: moto evaluates the role's condition on s3:if-none-match as AWS does through motoServer.py (gap 7).
    const asServer = new S3Client({ region: REGION, endpoint: moto.endpoint, forcePathStyle: true, credentials: deployment.server, maxAttempts: 1 });
    const inBucket = { Bucket: deployment.bucket };
    // Listed whole: moto checks the signature of a prefix holding "/" on other bytes than the SDK signs.
    const listed = (await asServer.send(new ListObjectsV2Command(inBucket))).Contents ?? [];
    const evidence = listed.map((object) => object.Key!).filter((key) => key.startsWith(`evidence/${id}/`));
    expect(evidence.map((key) => key.split('/')[2]).sort()).toEqual(['documentBack', 'documentFront', 'model036', 'selfie']);
    const bytesAt = async (Key: string) => Buffer.from(await (await asServer.send(new GetObjectCommand({ ...inBucket, Key }))).Body!.transformToByteArray());
    const [copy] = evidence;
    const before = await bytesAt(copy);
    await expect(asServer.send(new PutObjectCommand({ ...inBucket, Key: copy, Body: 'replaced' }))).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(asServer.send(new PutObjectCommand({ ...inBucket, Key: copy, Body: 'replaced', IfNoneMatch: '*' }))).rejects.toMatchObject({ name: 'PreconditionFailed' });
    expect((await bytesAt(copy)).equals(before)).toBe(true);
    // The approval locked every copy (Object Lock, COMPLIANCE) for ten years: not even the bucket's administrator can
    // remove the version it holds.
    const asLockReader = new S3Client({ region: REGION, endpoint: moto.endpoint, forcePathStyle: true, credentials: moto.admin, maxAttempts: 1 });
    const tenYearsOn = new Date(Date.now() + 3650 * 86_400_000);
    for (const Key of evidence) {
      const { ObjectLockMode, ObjectLockRetainUntilDate } = await asLockReader.send(new HeadObjectCommand({ ...inBucket, Key }));
      expect(ObjectLockMode).toBe('COMPLIANCE');
      expect(ObjectLockRetainUntilDate!.getTime()).toBeGreaterThan(tenYearsOn.getTime() - 7 * 86_400_000);
    }
    const { VersionId } = await asLockReader.send(new HeadObjectCommand({ ...inBucket, Key: copy }));
    await expect(asLockReader.send(new DeleteObjectCommand({ ...inBucket, Key: copy, VersionId }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 403 } });
    asLockReader.destroy();
    // An erased application's evidence goes with a delete (allowed, for it alone holds nothing Object Lock keeps), and
    // the versioned bucket keeps the version before it until the lifecycle removes it: a delete brings back what it hid.
    const scratch = `evidence/${id}/model036/${'f'.repeat(64)}`;
    await asServer.send(new PutObjectCommand({ ...inBucket, Key: scratch, Body: 'erased', IfNoneMatch: '*' }));
    await asServer.send(new DeleteObjectCommand({ ...inBucket, Key: scratch }));
    await expect(asServer.send(new GetObjectCommand({ ...inBucket, Key: scratch }))).rejects.toMatchObject({ name: 'NoSuchKey' });
    const asAdmin = new S3Client({ region: REGION, endpoint: moto.endpoint, forcePathStyle: true, credentials: moto.admin, maxAttempts: 1 });
    const versions = await asAdmin.send(new ListObjectVersionsCommand(inBucket));
    asAdmin.destroy();
    expect(versions.Versions?.filter((version) => version.Key === scratch).map((version) => version.IsLatest)).toEqual([false]);
    expect(versions.DeleteMarkers?.filter((marker) => marker.Key === scratch).map((marker) => marker.IsLatest)).toEqual([true]);
    // Not even a new key without the header, and no write at all outside evidence/.
    await expect(asServer.send(new PutObjectCommand({ ...inBucket, Key: `evidence/${id}/model036/${'0'.repeat(64)}`, Body: 'x' }))).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(asServer.send(new PutObjectCommand({ ...inBucket, Key: `${model036}.copy`, Body: 'x', IfNoneMatch: '*' }))).rejects.toMatchObject({ name: 'AccessDenied' });
    // And in the applicants' areas.
    await asServer.send(new DeleteObjectCommand({ ...inBucket, Key: model036 }));
    asServer.destroy();

    // Every step went through both processes, each request to the other one.
    const served = entrance.served.map((step) => step.process);
    expect(served.every((process, index) => index === 0 || process !== served[index - 1])).toBe(true);
    expect(new Set(served)).toEqual(new Set([0, 1]));
    expect(processes.map((server) => server.output.stderr)).toEqual(['', '']);
  });
});
