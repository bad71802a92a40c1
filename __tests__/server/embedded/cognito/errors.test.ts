import { N } from '../../../../server/embedded/cognito/srp';
import { signIn } from './browserClient';
import { CLIENT_ID, startHarness, type Harness } from './harness';
import { describeEachDialect } from '../../helpers';

let harness: Harness;

// Each sign-in runs the browser library's pure-JavaScript SRP maths (about half a second).
jest.setTimeout(60_000);

describeEachDialect('the embedded pool endpoint', (dialect) => {
  beforeAll(async () => {
    harness = await startHarness(dialect);
    await harness.identity.createUser('G4444444D', '+34644444444');
    await harness.identity.setPassword('G4444444D', 'Errors-Pass-1', true);
  });

  afterAll(async () => {
    await harness.close();
  });

  afterEach(() => {
    harness.clock.offsetMs = 0;
  });

  async function call(target: string | undefined, body: string | object, contentType = 'application/x-amz-json-1.1') {
    const response = await fetch(harness.endpoint, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(target !== undefined && { 'x-amz-target': target }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as { __type: string; message: string }, text };
  }

  const idp = (operation: string) => `AWSCognitoIdentityProviderService.${operation}`;
  const srp = (parameters: Record<string, unknown>, extra: object = {}) => ({
    AuthFlow: 'USER_SRP_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { USERNAME: 'G4444444D', SRP_A: 'abc123', ...parameters },
    ...extra,
  });

  /**
   * Runs a real sign-in but keeps its RespondToAuthChallenge for the test to send (the client gets a failure
   * instead), so the test can replay it, let it expire or change it.
   */
  async function heldChallengeResponse(): Promise<Record<string, unknown>> {
    const realFetch = globalThis.fetch;
    let held: Record<string, unknown> | undefined;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      if (headers.get('x-amz-target') === idp('RespondToAuthChallenge')) {
        held = JSON.parse(String(init?.body));
        return new Response(JSON.stringify({ __type: 'HeldByTest', message: 'held' }), { status: 400 });
      }
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      await signIn(harness.endpoint, 'G4444444D', 'Errors-Pass-1').catch(() => undefined);
    } finally {
      globalThis.fetch = realFetch;
    }
    if (!held) throw new Error('no RespondToAuthChallenge was sent');
    return held;
  }

  describe('bad requests get the AWS error, never a crash or a stack trace', () => {
    it.each([
      ['malformed JSON', idp('InitiateAuth'), '{"AuthFlow": ', 'SerializationException'],
      ['a JSON array', idp('InitiateAuth'), '[]', 'SerializationException'],
      ['a field of the wrong type', idp('InitiateAuth'), { AuthFlow: 7, ClientId: CLIENT_ID }, 'SerializationException'],
      ['an unknown operation', idp('DescribeUserPool'), {}, 'UnknownOperationException'],
      ['an unknown service', 'AmazonS3.GetObject', {}, 'UnknownOperationException'],
      ['no X-Amz-Target', undefined, {}, 'UnknownOperationException'],
      ['a missing ClientId', idp('InitiateAuth'), { AuthFlow: 'USER_SRP_AUTH', AuthParameters: {} }, 'InvalidParameterException'],
      ['an unknown AuthFlow', idp('InitiateAuth'), { AuthFlow: 'MAGIC', ClientId: CLIENT_ID }, 'InvalidParameterException'],
      ['a disabled AuthFlow', idp('InitiateAuth'), { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: CLIENT_ID }, 'InvalidParameterException'],
      ['a missing USERNAME', idp('InitiateAuth'), srp({ USERNAME: undefined }), 'InvalidParameterException'],
      ['an oversized USERNAME', idp('InitiateAuth'), srp({ USERNAME: 'x'.repeat(129) }), 'InvalidParameterException'],
      ['an oversized ClientId', idp('InitiateAuth'), srp({}, { ClientId: 'a'.repeat(129) }), 'InvalidParameterException'],
      ['a missing SRP_A', idp('InitiateAuth'), srp({ SRP_A: undefined }), 'InvalidParameterException'],
      ['a non-hex SRP_A', idp('InitiateAuth'), srp({ SRP_A: 'xyz' }), 'InvalidParameterException'],
      ['SRP_A = 0', idp('InitiateAuth'), srp({ SRP_A: '0' }), 'InvalidParameterException'],
      ['SRP_A = N', idp('InitiateAuth'), srp({ SRP_A: N.toString(16) }), 'InvalidParameterException'],
      ['SRP_A = 2N', idp('InitiateAuth'), srp({ SRP_A: (2n * N).toString(16) }), 'InvalidParameterException'],
      ['a wrong ClientId', idp('InitiateAuth'), srp({}, { ClientId: 'someOtherClient' }), 'ResourceNotFoundException'],
      ['an unsupported challenge', idp('RespondToAuthChallenge'), { ClientId: CLIENT_ID, ChallengeName: 'SMS_MFA', Session: 's'.repeat(40) }, 'InvalidParameterException'],
      ['a garbage access token', idp('GlobalSignOut'), { AccessToken: 'abc.def.ghi' }, 'NotAuthorizedException'],
      ['an unknown identity pool', 'AWSCognitoIdentityService.GetId', { IdentityPoolId: 'local:00000000-0000-0000-0000-000000000000' }, 'ResourceNotFoundException'],
    ])('%s', async (_case, target, body, type) => {
      const result = await call(target, body);
      expect(result.status).toBe(400);
      expect(result.body.__type).toBe(type);
      expect(Object.keys(result.body).sort()).toEqual(['__type', 'message']);
      expect(result.text).not.toMatch(/\bat .+\.(ts|js):\d+/);
    });

    it.each(['application/x-amz-json-1.1', 'application/json', 'text/plain; charset=utf-8'])('a body over the limit, sent as %s', async (contentType) => {
      const result = await call(idp('InitiateAuth'), srp({ USERNAME: 'x'.repeat(70_000) }), contentType);
      expect(result.status).toBe(413);
      expect(result.body.__type).toBe('InvalidParameterException');
      // A body within it is taken whatever it is labelled (as AWS does): the same request, answered.
      const within = await call(idp('InitiateAuth'), srp({}), contentType);
      expect(within.status).toBe(200);
    });

    it('answers in AWS JSON 1.1 with a request id', async () => {
      const response = await fetch(harness.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': idp('InitiateAuth') },
        body: JSON.stringify(srp({})),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/x-amz-json-1\.1/);
      expect(response.headers.get('x-amzn-requestid')).toMatch(/\S+/);
    });

    it('allows the browser client through CORS', async () => {
      const response = await fetch(harness.endpoint, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:8080',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-amz-target,x-amz-user-agent,cache-control',
        },
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const allowed = response.headers.get('access-control-allow-headers')!.split(/,\s*/);
      expect(allowed).toEqual(expect.arrayContaining(['content-type', 'x-amz-target', 'x-amz-user-agent', 'cache-control']));
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    });
  });

  describe('the InitiateAuth session', () => {
    it('works once, and a replay is refused', async () => {
      const respond = await heldChallengeResponse();
      const first = await call(idp('RespondToAuthChallenge'), respond);
      expect(first.status).toBe(200);
      expect(first.text).toContain('AuthenticationResult');
      const replay = await call(idp('RespondToAuthChallenge'), respond);
      expect(replay).toMatchObject({
        status: 400,
        body: { __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' },
      });
    });

    it('expires after three minutes', async () => {
      const respond = await heldChallengeResponse();
      harness.clock.offsetMs = 181_000;
      const late = await call(idp('RespondToAuthChallenge'), respond);
      expect(late.body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
    });

    it('refuses a TIMESTAMP too far from the server clock, or malformed, without counting a failure', async () => {
      const respond = await heldChallengeResponse();
      const responses = respond.ChallengeResponses as Record<string, string>;
      harness.clock.offsetMs = 0;
      const skewed = await call(idp('RespondToAuthChallenge'), {
        ...respond,
        ChallengeResponses: { ...responses, TIMESTAMP: 'Mon Jan 5 10:00:00 UTC 2026' },
      });
      expect(skewed).toMatchObject({ status: 400, body: { __type: 'InvalidParameterException' } });
      const malformed = await call(idp('RespondToAuthChallenge'), { ...respond, ChallengeResponses: { ...responses, TIMESTAMP: 'yesterday' } });
      expect(malformed).toMatchObject({ status: 400, body: { __type: 'InvalidParameterException' } });
      // More refused attempts than the lockout allows (5): had they counted as failures, the account would be locked.
      for (let i = 0; i < 5; i += 1) {
        const again = await call(idp('RespondToAuthChallenge'), { ...respond, ChallengeResponses: { ...responses, TIMESTAMP: 'yesterday' } });
        expect(again).toMatchObject({ status: 400, body: { __type: 'InvalidParameterException' } });
      }
      // The session was not used up by the refused attempts, and the sign-in goes through.
      expect((await call(idp('RespondToAuthChallenge'), respond)).status).toBe(200);
    });

    it('is used up by a wrong proof too: the right one sent next is refused as expired', async () => {
      const respond = await heldChallengeResponse();
      const responses = respond.ChallengeResponses as Record<string, string>;
      const wrong = await call(idp('RespondToAuthChallenge'), { ...respond, ChallengeResponses: { ...responses, PASSWORD_CLAIM_SIGNATURE: 'AAAA' } });
      expect(wrong.body).toEqual({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      const replay = await call(idp('RespondToAuthChallenge'), respond);
      expect(replay.body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
    });

    it('refuses a Session changed by the client as expired', async () => {
      const respond = await heldChallengeResponse();
      const session = respond.Session as string;
      const flipped = `${session.slice(0, 20)}${session[20] === 'A' ? 'B' : 'A'}${session.slice(21)}`;
      for (const changed of [flipped, `${session}A`, 's'.repeat(40)]) {
        const result = await call(idp('RespondToAuthChallenge'), { ...respond, Session: changed });
        expect(result.body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid session for the user, session is expired.' });
      }
      expect((await call(idp('RespondToAuthChallenge'), respond)).status).toBe(200);
    });

    it('refuses the proof when the password was set again after the challenge', async () => {
      const respond = await heldChallengeResponse();
      // The same password again gets a new salt and verifier: the challenge was made for the old ones.
      await harness.identity.setPassword('G4444444D', 'Errors-Pass-1', true);
      const result = await call(idp('RespondToAuthChallenge'), respond);
      expect(result.body).toEqual({ __type: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      await harness.identity.setPassword('G4444444D', 'Errors-Pass-1', true);
      expect((await call(idp('RespondToAuthChallenge'), await heldChallengeResponse())).status).toBe(200);
    });

    it('refuses a changed secret block or username as a wrong password', async () => {
      for (const change of [{ PASSWORD_CLAIM_SECRET_BLOCK: 'c2VjcmV0' }, { USERNAME: 'H5555555E' }, { PASSWORD_CLAIM_SIGNATURE: 'AAAA' }]) {
        const respond = await heldChallengeResponse();
        const result = await call(idp('RespondToAuthChallenge'), {
          ...respond,
          ChallengeResponses: { ...(respond.ChallengeResponses as object), ...change },
        });
        expect(result).toMatchObject({ status: 400, body: { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
      }
    });
  });
});
