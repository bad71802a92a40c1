import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import { AuthenticationDetails, CognitoUser, CognitoUserPool } from 'amazon-cognito-identity-js';
import { Client } from 'pg';
import { ONBOARDING_STATUS_ATTRIBUTE } from '../../server/services/onboardingGate';
import { createIdentityService } from '../../server/services/identity';
import { passCaptcha, verificationSignature } from '../server/login/loginServer';
import { startServerProcess, type ServerProcess } from '../server/processes';
import { freePort, postgresUrlInSchema } from '../server/helpers';
import { deployToMoto, describeWhenAvailable, motoUnavailable, REGION, SENDER_ID, serverEnvOnMoto, startMoto, synthesizedTemplate, textMessages, type Deployment, type Moto } from './moto';

// The server as it runs on AWS, against an AWS emulator (moto) with IAM enforcement on and the resources made
// from the deployment's own template: the server signs with an IAM user that has exactly the deployed server
// role's policy, the user pool has no pre-token-generation Lambda (moto runs none), and the SMS code is read where
// SNS received it.

const unavailable = motoUnavailable();
const describeOnMoto = describeWhenAvailable('AWS emulator tests', unavailable);

const customer = { username: '12345678Z', password: 'Divilo-Aws-2026!', phone: '+34600000301' };
const applicant = { username: 'X1234567L', password: 'Divilo-Aws-2026!', phone: '+34600000302' };

describeOnMoto('the server on "AWS" (moto, IAM enforced)', () => {
  let moto: Moto;
  let deployment: Deployment;
  let server: ServerProcess;
  let api: string;
  let base: string;
  let schema: string;
  let dataDir: string;
  const postgres = process.env.DATABASE_URL!;

  const onPostgres = async <T>(work: (client: Client) => Promise<T>) => {
    const client = new Client({ connectionString: postgres });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    moto = await startMoto();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    api = `${base}/api`;
    deployment = await deployToMoto(moto, synthesizedTemplate(), base);

    // Customers are made with the admin API, signed by the server's own IAM user: its permissions are tried too.
    const identity = createIdentityService({ region: REGION, userPoolId: deployment.userPoolId, clientId: deployment.clientId, endpoint: moto.endpoint, credentials: deployment.server });
    for (const [person, status] of [[customer, 'complete'], [applicant, 'pending_review']] as const) {
      await identity.createUser(person.username, person.phone, { [ONBOARDING_STATUS_ATTRIBUTE]: status });
      await identity.setPassword(person.username, person.password, true);
    }
    identity.destroy();

    schema = `aws_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
    await onPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-aws-'));
    server = await startServerProcess({
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: postgresUrlInSchema(postgres, schema),
      SERVER_SECRET: Buffer.alloc(32, 9).toString('base64'),
      ...serverEnvOnMoto(moto, deployment),
      RATE_LIMIT_SENSITIVE_MAX: '1000',
      LOG_LEVEL: 'warn',
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await moto?.stop();
    if (schema) await onPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The browser's sign-in: the unmodified amazon-cognito-identity-js, SRP, at the configuration the server hands out. */
  async function signIn(username: string, password: string): Promise<string> {
    const { identity } = (await (await fetch(`${base}/config.json`)).json()) as { identity: { userPoolId: string; clientId: string; endpoint?: string } };
    const items = new Map<string, string>();
    const storage = { setItem: (k: string, v: string) => void items.set(k, v), getItem: (k: string) => items.get(k) ?? null, removeItem: (k: string) => void items.delete(k), clear: () => items.clear() };
    const pool = new CognitoUserPool({ UserPoolId: identity.userPoolId, ClientId: identity.clientId, endpoint: identity.endpoint, Storage: storage });
    const user = new CognitoUser({ Username: username, Pool: pool, Storage: storage });
    return new Promise((resolve, reject) =>
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), {
        onSuccess: (session) => resolve(session.getIdToken().getJwtToken()),
        onFailure: reject,
      }),
    );
  }

  const createSession = (headers: Record<string, string>) => fetch(`${api}/user-authorization-management/create-session`, { method: 'POST', headers });

  /** The newest SMS SNS was asked to send to `phone`. */
  const lastText = async (phone: string) => (await textMessages(moto)).filter((sms) => sms.phoneNumber === phone).at(-1);
  const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')![1];

  it('tells the browser where the identity service answers, and the emulator enforces IAM', async () => {
    const runtime = (await (await fetch(`${base}/config.json`)).json()) as { identity: { endpoint: string; identityPoolEndpoint: string }; storage: { endpoint: string } };
    expect(runtime.identity).toMatchObject({ endpoint: moto.endpoint, identityPoolEndpoint: moto.endpoint });
    expect(runtime.storage.endpoint).toBe(moto.endpoint);
    // Not in the server's policy: refused.
    const client = new CognitoIdentityProviderClient({ region: REGION, endpoint: moto.endpoint, credentials: deployment.server });
    // moto answers the refusal in XML, which the JSON client cannot read: its status and body say what it was.
    const refusal = (await client.send(new ListUsersCommand({ UserPoolId: deployment.userPoolId })).catch((error: unknown) => error)) as {
      $metadata?: { httpStatusCode?: number };
      $response?: { statusCode?: number };
    };
    client.destroy();
    expect(refusal.$metadata?.httpStatusCode ?? refusal.$response?.statusCode).toBe(403);
  });

  it('a customer signs in with SRP, gets the SMS code and starts a session', async () => {
    const idToken = await signIn(customer.username, customer.password);
    const sessionId = randomUUID();
    await passCaptcha(api, sessionId);
    const started = await createSession({ authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId });
    expect(started.status).toBe(200);
    const { token, maskedPhone } = (await started.json()) as { token: string; maskedPhone: string };
    expect(maskedPhone).toBe('********301');

    // The code went through SNS (sns:Publish under the server's own policy): transactional, from the sender ID.
    const sms = await lastText(customer.phone);
    expect(sms).toMatchObject({
      region: REGION,
      attributes: { 'AWS.SNS.SMS.SMSType': { Type: 'String', Value: 'Transactional' }, 'AWS.SNS.SMS.SenderID': { Type: 'String', Value: SENDER_ID } },
    });
    // Nothing went to the outbox.
    expect((await onPostgres((client) => client.query(`select id from "${schema}".outbox where channel = 'sms'`))).rows).toEqual([]);

    // The confirmation reads the account (AdminGetUser) with the server's own permissions.
    const confirmed = await createSession({ 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, codeIn(sms?.text)) });
    expect(confirmed.status).toBe(201);
    const cookie = (confirmed.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await fetch(`${api}/user-authorization-management/get-session`, { headers: { cookie } })).status).toBe(200);
  });

  it('an applicant pending review passes the pool (no Lambda here) and the server refuses the session', async () => {
    const idToken = await signIn(applicant.username, applicant.password);
    const sessionId = randomUUID();
    await passCaptcha(api, sessionId);
    const refused = await createSession({ authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ONBOARDING_NOT_COMPLETE', reason: 'ERR-2809' });
    // No code was texted.
    expect(await lastText(applicant.phone)).toBeUndefined();
  });

  it('/health says the identity service answers', async () => {
    const health = (await (await fetch(`${base}/health`)).json()) as { identity: { reachable: boolean | null } };
    expect(health.identity.reachable).toBe(true);
  });
});
