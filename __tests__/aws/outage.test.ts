// The identity service and the bucket going away in the middle of a freelancer's journey on "AWS" (moto, IAM
// enforced, the server on PostgreSQL), and coming back. A proxy in front of moto cuts its traffic (moto keeps
// everything in memory: stopping it would lose the pools): storage at a document check, the user pool at the
// password step, AdminCreateUser's answers at the identity's verification, the user pool at login. Each answers
// 503 with its stable code within the call limits (not a hang, not a 500), saves nothing half-way, and once moto
// answers again the same step succeeds and the journey goes on to a signed-in customer.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { AuthenticationDetails, CognitoUser, CognitoUserPool } from 'amazon-cognito-identity-js';
import { Client } from 'pg';
import { ATTEMPT_TIMEOUT_MS, CONNECT_TIMEOUT_MS, FETCH_TIMEOUT_MS, MAX_ATTEMPTS } from '../../server/services/outboundCalls';
import { freePort, postgresUrlInSchema } from '../server/helpers';
import { documentPhoto, realSelfie } from '../server/images';
import { passCaptcha, verificationSignature } from '../server/login/loginServer';
import { plainPdf } from '../server/pdfs';
import { startServerProcess, type ServerProcess } from '../server/processes';
import { AWS_TRAFFIC, cutOffProxy, type CutOffProxy } from './cutOff';
import { applicantUploads, freelancerAtFiscalAddress, privateSteps } from './applicant';
import { deployToMoto, describeWhenAvailable, motoUnavailable, REGION, serverEnvOnMoto, startMoto, synthesizedTemplate, textMessages, type Deployment, type Moto } from './moto';

const describeOnMoto = describeWhenAvailable('AWS emulator outage', motoUnavailable());

const PERSON = { firstName: 'Marta', firstSurname: 'Gil', secondSurname: 'Ruiz', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '02/05/1988' };
const ACTIVITY = { selfEmployedId: '34567890V', selfEmployedActivity: '1.673.2', selfEmployedDate: '01/02/2024', selfEmployedAtaCode: '', promotionalCode: '' };
const ADDRESS = { selfEmployedFiscalAddress: 'Calle Mayor 2', selfEmployedFiscalAdditionalAddress: '', selfEmployedFiscalPostalCode: '28013', selfEmployedFiscalCity: 'Madrid', selfEmployedFiscalCountry: 'ES' };
const APPLICANT = { id: '34567890V', email: 'marta.outage@example.com', phone: '+34612345602', password: 'Divilo-Outage-2026!', person: PERSON, activity: ACTIVITY, address: ADDRESS };
const MORE = { website: 'https://marta.example', countriesWhereOperate: ['ES'], diviloProduct: 'account', foundsOrigin: 'business-activity', assetsOrigin: 'savings', politicalPosition: false };

/** The longest an AWS call may hold a request: every attempt to its limit and the backoff; then slack for a busy machine. */
const CALL_BOUND_MS = MAX_ATTEMPTS * ATTEMPT_TIMEOUT_MS + CONNECT_TIMEOUT_MS + 1000 + 5000;

// The template synthesized and deployed, one server process, the face detector on two photos, three admin runs,
// and five waits of up to ten seconds on calls nobody answers.
jest.setTimeout(420_000);

describeOnMoto('the identity service and the bucket going away mid-journey on "AWS" (moto behind a proxy that cuts it off)', () => {
  const postgres = process.env.DATABASE_URL!;
  const schema = `outage_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  let moto: Moto;
  let proxy: CutOffProxy;
  let deployment: Deployment;
  let server: ServerProcess;
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
  // E-mails wait in the outbox; SMS go through SNS (moto's record of them, read from moto itself, not the proxy).
  const lastCode = async (recipient: string) => {
    const text = recipient.startsWith('+')
      ? (await textMessages(moto)).filter((sms) => sms.phoneNumber === recipient).at(-1)?.text
      : await onPostgres(async (client) => {
          const { rows } = await client.query<{ text: string }>(`select text from "${schema}".outbox where recipient = $1 order by id desc limit 1`, [recipient]);
          return rows[0]?.text;
        });
    const code = /\b(\d{6})\b/.exec(text ?? '');
    if (!code) throw new Error(`no code sent to ${recipient}`);
    return code[1];
  };
  const rowsOf = (sql: string, values: unknown[]) => onPostgres(async (client) => (await client.query(sql.replaceAll('"schema"', `"${schema}"`), values)).rows);

  beforeAll(async () => {
    moto = await startMoto();
    proxy = await cutOffProxy(moto.endpoint);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = `${base}/api`;
    deployment = await deployToMoto(moto, synthesizedTemplate(), base);
    await onPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-outage-'));
    serverEnv = {
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: postgresUrlInSchema(postgres, schema),
      SERVER_SECRET: Buffer.alloc(32, 9).toString('base64'),
      // The server, the admin program and the test's browser all reach "AWS" through the proxy.
      ...serverEnvOnMoto({ ...moto, endpoint: proxy.endpoint }, deployment),
      IDENTITY_PROVIDER: 'manual',
      RATE_LIMIT_MAX: '5000',
      RATE_LIMIT_SENSITIVE_MAX: '1000',
      LOG_LEVEL: 'warn',
    };
    server = await startServerProcess({ ...serverEnv, PORT: String(port) });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await moto?.stop();
    await onPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm run admin` on the server's configuration. */
  const admin = (args: string[]) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', path.join('scripts', 'admin.ts'), '--reviewer', 'marta', ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1', ...serverEnv },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  const post = (route: string, token: string, body?: unknown) => privateSteps(api)(route, token, body);

  /** `request` made while `match` is cut off with `fault`: how long its answer took, and the answer. */
  async function whileCut<T>(match: (head: string) => boolean, fault: 'silent' | 'hang-up', request: () => Promise<T>) {
    const restore = proxy.cut(match, fault);
    const before = proxy.cutConnections();
    const started = Date.now();
    try {
      const answer = await request();
      const elapsed = Date.now() - started;
      // The cut was reached: the answer is the outage's, not something that never called out.
      expect(proxy.cutConnections()).toBeGreaterThan(before);
      return { answer, elapsed };
    } finally {
      restore();
    }
  }

  const application = async (id: string) =>
    (await rowsOf(`select completed_steps, answers from "schema".onboarding_applications where id = $1`, [id]))[0] as { completed_steps: string; answers: string };

  it('answers 503 within the call limits at a document check, the password step, the verification and login; nothing half-saved; each step succeeds once moto is back', async () => {
    // Sign-up and the first steps, moto answering.
    const { token, id } = await freelancerAtFiscalAddress(api, APPLICANT, lastCode);
    const { upload } = await applicantUploads(post, token, { bucket: deployment.bucket, endpoint: proxy.endpoint });

    // 1. The bucket silent while the server checks the uploaded modelo 036 (HeadObject, GetObject).
    const model036 = await upload('model036', 'modelo-036.pdf', plainPdf(), 'application/pdf');
    const check = await whileCut(AWS_TRAFFIC.bucket(deployment.bucket), 'silent', () => post('documents', token, { kind: 'model036', key: model036 }));
    expect(check.answer).toMatchObject({ status: 503, retryAfter: '5', body: { code: 'SERVICE_UNAVAILABLE' } });
    expect(check.elapsed).toBeLessThan(CALL_BOUND_MS);
    expect(await rowsOf(`select object_key from "schema".onboarding_documents where application_id = $1`, [id])).toEqual([]);
    // Back: the same report is checked and recorded, and the step it belongs to saves.
    expect(await post('documents', token, { kind: 'model036', key: model036 })).toMatchObject({ status: 200, body: { kind: 'model036', key: model036 } });
    expect((await post('legalperson/freelance/tax', token, { selfEmployedTax: 'direct-simplified', model036 })).body).toMatchObject({ next: 'tell-us-more-freelance' });
    expect((await post('legalperson/freelance/moreinfo', token, MORE)).body).toMatchObject({ next: 'divilo-password' });

    // 2. The user pool silent at the password step: nothing kept, neither the step nor the sealed password.
    const choose = () => post('password', token, { diviloPassword: APPLICANT.password, diviloPasswordConfirmation: APPLICANT.password });
    const password = await whileCut(AWS_TRAFFIC.userPool, 'silent', choose);
    expect(password.answer).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
    expect(password.elapsed).toBeLessThan(CALL_BOUND_MS);
    expect(JSON.parse((await application(id)).completed_steps)).not.toContain('divilo-password');
    expect(await rowsOf(`select application_id from "schema".pending_passwords where application_id = $1`, [id])).toEqual([]);
    expect(await choose()).toMatchObject({ status: 200, body: { next: 'check-identity' } });

    // The identity check's photos, to the bucket, with moto answering.
    const photos = {
      documentFront: await upload('documentFront', 'front.png', await documentPhoto('png'), 'image/png'),
      documentBack: await upload('documentBack', 'back.jpg', await documentPhoto('jpeg', { portrait: false, seed: 3 }), 'image/jpeg'),
      selfie: await upload('selfie', 'selfie.jpg', await realSelfie(), 'image/jpeg'),
    };
    for (const [kind, key] of Object.entries(photos)) expect((await post('documents', token, { kind, key })).status).toBe(200);
    expect((await post('identity-check', token, photos)).status).toBe(200);

    // 3. The verification makes the sign-in user: AdminCreateUser is done by the pool, its answers lost (both attempts).
    const lost = proxy.cut(AWS_TRAFFIC.userPoolCall('AdminCreateUser'), 'lose-answer');
    const verified = await admin(['identity', id, 'approve']);
    lost();
    expect(verified.code).toBe(1);
    const pool = new CognitoIdentityProviderClient({ region: REGION, endpoint: moto.endpoint, credentials: moto.admin });
    const made = await pool.send(new AdminGetUserCommand({ UserPoolId: deployment.userPoolId, Username: APPLICANT.id }));
    expect(JSON.parse((await application(id)).answers).identityUserSub).toBeUndefined();

    // The contract, then the approval: it finds that user its own, gives it the password and records it (no 409,
    // no second user).
    expect((await post('contract/consent', token, { electronicIdentification: true })).status).toBe(200);
    expect((await post('contract/sign', token, { code: await lastCode(APPLICANT.phone) })).status).toBe(200);
    expect(await admin(['approve', id])).toMatchObject({ stderr: '', code: 0 });
    const sub = made.UserAttributes?.find((attribute) => attribute.Name === 'sub')?.Value;
    expect(JSON.parse((await application(id)).answers).identityUserSub).toBe(sub);
    pool.destroy();

    // 4. Login. The browser signs in (SRP) with the password the verification's retry gave the user.
    const { identity } = (await (await fetch(`${base}/config.json`)).json()) as { identity: { userPoolId: string; clientId: string; endpoint?: string } };
    const items = new Map<string, string>();
    const storage = { setItem: (k: string, v: string) => void items.set(k, v), getItem: (k: string) => items.get(k) ?? null, removeItem: (k: string) => void items.delete(k), clear: () => items.clear() };
    const user = new CognitoUser({ Username: APPLICANT.id, Pool: new CognitoUserPool({ UserPoolId: identity.userPoolId, ClientId: identity.clientId, endpoint: identity.endpoint, Storage: storage }), Storage: storage });
    const idToken = await new Promise<string>((resolve, reject) =>
      user.authenticateUser(new AuthenticationDetails({ Username: APPLICANT.id, Password: APPLICANT.password }), { onSuccess: (session) => resolve(session.getIdToken().getJwtToken()), onFailure: reject }),
    );
    const createSession = async (headers: Record<string, string>) => {
      const response = await fetch(`${api}/user-authorization-management/create-session`, { method: 'POST', headers });
      return { status: response.status, body: (await response.json()) as Record<string, unknown>, cookie: response.headers.get('set-cookie') };
    };
    const startSession = async () => {
      const loginSession = randomUUID();
      await passCaptcha(api, loginSession);
      return { loginSession, answer: await createSession({ authorization: `Bearer ${idToken}`, 'x-divilo-session-id': loginSession }) };
    };
    // The pool's signing keys silent: the login says the identity service is away, not that the password is wrong.
    const keys = await whileCut(AWS_TRAFFIC.userPool, 'silent', startSession);
    expect(keys.answer.answer).toMatchObject({ status: 503, body: { code: 'IDENTITY_UNAVAILABLE' } });
    expect(keys.elapsed).toBeLessThan(FETCH_TIMEOUT_MS + 5000);
    const started = await startSession();
    expect(started.answer.status).toBe(200);
    const loginToken = started.answer.body.token as string;
    const confirm = async () => createSession({ 'x-divilo-session-id': started.loginSession, 'x-divilo-verification-signature': verificationSignature(loginToken, await lastCode(APPLICANT.phone)) });
    // The user pool silent at the SMS code's last check (AdminGetUser): no session, and the code is not used up.
    const last = await whileCut(AWS_TRAFFIC.userPool, 'hang-up', confirm);
    expect(last.answer).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' }, cookie: null });
    expect(last.elapsed).toBeLessThan(CALL_BOUND_MS);
    const session = await confirm();
    expect(session.status).toBe(201);
    expect(session.cookie).toContain('divilo_session=');

    // Every outage was an answer the client could act on: no 500 anywhere, nothing on the server's stderr.
    expect(server.output.stdout).not.toContain('"msg":"request failed"');
    expect(server.output.stderr).toBe('');
  });
});
