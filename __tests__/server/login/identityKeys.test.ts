import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { IDENTITY_PROBE_MS } from '../../../server/plugins/identity';
import { describeEachDialect, logCollector } from '../helpers';
import { passCaptcha, startLoginServerOn } from './loginServer';

// The server on an Amazon Cognito user pool reached through a configured endpoint (an emulator, a VPC
// endpoint, a proxy): its signing keys are read there, a failure to read them is logged once and answered as
// the identity service being away, and /health reports whether they can be read without asking every time.

const POOL = 'eu-west-1_AbC123';
const CLIENT = '4hj2k5l6m7n8p9q0r1s2t3u4v5';
const ON_AWS = {
  COGNITO_USER_POOL_ID: POOL,
  COGNITO_CLIENT_ID: CLIENT,
  COGNITO_IDENTITY_POOL_ID: 'eu-west-1:0d6b3c2a-1e4f-4a5b-9c8d-7e6f5a4b3c2d',
  S3_BUCKET: 'divilo-test-docs',
  LOG_LEVEL: 'info',
};

/** The pool's key endpoint, standing in for Cognito's: it can be made to fail, and counts what it is asked. */
async function keyEndpoint() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
  const state = { failing: false, requests: [] as string[] };
  const server: Server = createServer((request, response) => {
    state.requests.push(request.url ?? '');
    if (state.failing || request.url !== `/${POOL}/.well-known/jwks.json`) return void response.writeHead(503).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  /** An id token as Cognito issues it (AWS's issuer, whatever endpoint the keys come from). */
  const idToken = (claims: Record<string, unknown> = {}) =>
    new SignJWT({
      token_use: 'id',
      'cognito:username': '12345678Z',
      phone_number: '+34600000001',
      'custom:onboarding_status': 'complete',
      auth_time: Math.floor(Date.now() / 1000),
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'key-1' })
      .setSubject(randomUUID())
      .setIssuer(`https://cognito-idp.eu-west-1.amazonaws.com/${POOL}`)
      .setAudience(CLIENT)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
  return { url, state, idToken, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeEachDialect('the identity service on a configured endpoint', (dialect) => {
  let keys: Awaited<ReturnType<typeof keyEndpoint>>;
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  const logs = logCollector();
  beforeAll(async () => {
    keys = await keyEndpoint();
    server = await startLoginServerOn(dialect, { ...ON_AWS, COGNITO_ENDPOINT: keys.url }, { logStream: logs.stream });
  });
  afterAll(async () => {
    await server.close();
    await keys.close();
  });

  const createSession = async (idToken: string) => {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    return fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId },
    });
  };
  const keyLogs = () => logs.entries().filter((entry) => typeof entry.msg === 'string' && entry.msg.startsWith("the identity service's signing keys"));

  it('reads the keys at the configured endpoint and checks a token with them', async () => {
    const response = await createSession(await keys.idToken());
    expect(response.status).toBe(200);
    expect(keys.state.requests).toContain(`/${POOL}/.well-known/jwks.json`);
  });

  it('keys that cannot be read: "unavailable" (not "invalid token"), logged once per run of failures without the token', async () => {
    // A key the server has not seen yet makes it fetch the keys again.
    const token = await keys.idToken();
    const unknownKid = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: 'key-2' }).sign((await generateKeyPair('RS256')).privateKey);
    keys.state.failing = true;
    const fresh = await startLoginServerOn(dialect, { ...ON_AWS, COGNITO_ENDPOINT: keys.url }, { logStream: logs.stream });
    try {
      const sessionId = randomUUID();
      const call = async (idToken: string) => {
        await passCaptcha(fresh.api, sessionId);
        return fetch(`${fresh.api}/user-authorization-management/create-session`, {
          method: 'POST',
          headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId },
        });
      };
      const first = await call(token);
      expect(first.status).toBe(503);
      expect(await first.json()).toMatchObject({ code: 'IDENTITY_UNAVAILABLE' });
      expect((await call(token)).status).toBe(503);
      expect((await call(unknownKid)).status).toBe(503);

      const failures = keyLogs().filter((entry) => entry.level === 50);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatchObject({ jwksUrl: `${keys.url}/${POOL}/.well-known/jwks.json`, reason: expect.stringContaining('200 OK') });
      expect(logs.text()).not.toContain(token);
      expect(logs.text()).not.toContain(token.split('.')[1]);

      keys.state.failing = false;
      expect((await call(token)).status).toBe(200);
      expect(keyLogs().filter((entry) => entry.level === 30)).toHaveLength(1);
    } finally {
      keys.state.failing = false;
      await fresh.close();
    }
  });

  it('/health says whether the keys could be read, probing at most once per period however often it is called', async () => {
    await server.app.identityReachability.settled();
    const before = keys.state.requests.length;
    server.clock.offsetMs += IDENTITY_PROBE_MS;
    const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${server.base}/health`).then((response) => response.json())));
    await server.app.identityReachability.settled();
    expect(keys.state.requests.length - before).toBe(1);
    expect(answers[0]).toMatchObject({ status: 'ok', identity: { reachable: true } });

    keys.state.failing = true;
    try {
      server.clock.offsetMs += IDENTITY_PROBE_MS;
      const stale = (await (await fetch(`${server.base}/health`)).json()) as { identity: { reachable: boolean } };
      // The answer never waits for the probe: this one still says what the last probe found.
      expect(stale.identity.reachable).toBe(true);
      await server.app.identityReachability.settled();
      const now = await fetch(`${server.base}/health`);
      expect(now.status).toBe(200);
      expect(await now.json()).toMatchObject({ status: 'ok', identity: { reachable: false } });
      expect(keys.state.requests.length - before).toBe(2);
    } finally {
      keys.state.failing = false;
    }
  });
});
