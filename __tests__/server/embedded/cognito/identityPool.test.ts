import { CognitoIdentityClient, GetOpenIdTokenForDeveloperIdentityCommand, LookupDeveloperIdentityCommand } from '@aws-sdk/client-cognito-identity';
import { fromCognitoIdentity, fromCognitoIdentityPool } from '@aws-sdk/credential-providers';
import { lookupTemporaryCredentials } from '../../../../server/embedded/cognito';
import { ADMIN, CLIENT_ID, IDENTITY_POOL_ID, POOL_ID, REGION, SERVER_SECRET, startHarness, type Harness } from './harness';
import { srpSignIn } from './srpClient';
import { describeEachDialect } from '../../helpers';

let harness: Harness;
let idToken: string;
let otherIdToken: string;
const DEVELOPER_PROVIDER = 'login.divilo.onboarding';

// The id tokens come from an SRP sign-in with the library's requests, the maths through OpenSSL (srpClient.ts):
// signIn.test.ts signs in with the library itself.
jest.setTimeout(60_000);

describeEachDialect('the embedded identity pool', (dialect) => {
  beforeAll(async () => {
    harness = await startHarness(dialect, { temporaryCredentialsSeconds: 900, developerProviderName: DEVELOPER_PROVIDER });
    for (const username of ['D1111111A', 'E2222222B']) {
      await harness.identity.createUser(username, '+34622222222');
      await harness.identity.setPassword(username, 'Storage-Pass-1', true);
    }
    idToken = (await srpSignIn(harness.endpoint, POOL_ID, CLIENT_ID, 'D1111111A', 'Storage-Pass-1')).IdToken;
    otherIdToken = (await srpSignIn(harness.endpoint, POOL_ID, CLIENT_ID, 'E2222222B', 'Storage-Pass-1')).IdToken;
  });

  afterAll(async () => {
    await harness.close();
  });

  const provider = () => `${harness.issuerBaseUrl.replace(/^https?:\/\//, '')}/${POOL_ID}`;

  function credentialsFor(token: string, identityPoolId = IDENTITY_POOL_ID) {
    return fromCognitoIdentityPool({
      identityPoolId,
      logins: { [provider()]: token },
      clientConfig: { endpoint: harness.issuerBaseUrl, region: REGION, maxAttempts: 1 },
    })();
  }

  async function identityCall(target: string, body: unknown) {
    const response = await fetch(harness.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityService.${target}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  describe('the identity pool through fromCognitoIdentityPool', () => {
    it('mints temporary credentials that lookupTemporaryCredentials finds, for a stable identity id', async () => {
      const before = Date.now();
      const credentials = await credentialsFor(idToken);
      expect(credentials.accessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/);
      expect(credentials.secretAccessKey).toHaveLength(40);
      expect(credentials.sessionToken!.length).toBeGreaterThan(100);
      expect(credentials.identityId).toMatch(/^local:[0-9a-f-]{36}$/);
      expect(credentials.expiration!.getTime()).toBeGreaterThan(before + 890_000);
      expect(credentials.expiration!.getTime()).toBeLessThanOrEqual(before + 901_000);

      const found = await lookupTemporaryCredentials(harness.db, credentials.accessKeyId);
      expect(found).toEqual({
        secretAccessKey: credentials.secretAccessKey,
        sessionToken: credentials.sessionToken,
        identityId: credentials.identityId,
        expiresAt: credentials.expiration,
      });
      expect(await lookupTemporaryCredentials(harness.db, credentials.accessKeyId, SERVER_SECRET)).toEqual(found);
      // Unknown, or unsealed with the wrong secret: nothing.
      expect(await lookupTemporaryCredentials(harness.db, 'ASIAAAAAAAAAAAAAAAAA')).toBeUndefined();
      expect(await lookupTemporaryCredentials(harness.db, credentials.accessKeyId, 'another-secret-of-enough-length-000000')).toBeUndefined();

      // The secret is stored sealed, never in the clear.
      const rows = await harness.db.selectFrom('cognito_credentials').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(credentials.secretAccessKey);
      expect(JSON.stringify(rows)).not.toContain(credentials.sessionToken);

      const again = await credentialsFor(idToken);
      expect(again.identityId).toBe(credentials.identityId);
      expect(again.accessKeyId).not.toBe(credentials.accessKeyId);
      const other = await credentialsFor(otherIdToken);
      expect(other.identityId).not.toBe(credentials.identityId);
    });

    it('refuses a bad or missing login, another pool and another user identity', async () => {
      await expect(credentialsFor(`${idToken.slice(0, -3)}AAA`)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      await expect(credentialsFor(idToken, 'local:00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({
        name: 'ResourceNotFoundException',
      });

      const unauthenticated = await identityCall('GetId', { IdentityPoolId: IDENTITY_POOL_ID });
      expect(unauthenticated).toEqual({
        status: 400,
        body: { __type: 'NotAuthorizedException', message: 'Unauthenticated access is not supported for this identity pool.' },
      });
      const wrongProvider = await identityCall('GetId', { IdentityPoolId: IDENTITY_POOL_ID, Logins: { 'accounts.google.com': idToken } });
      expect(wrongProvider.body.__type).toBe('NotAuthorizedException');

      const { body } = await identityCall('GetId', { IdentityPoolId: IDENTITY_POOL_ID, Logins: { [provider()]: idToken } });
      // The same identity as the credential provider's, asked afresh: stable on the server side.
      expect(body.IdentityId).toBe((await credentialsFor(idToken)).identityId);
      const again = await identityCall('GetId', { IdentityPoolId: IDENTITY_POOL_ID, Logins: { [provider()]: idToken } });
      expect(again.body.IdentityId).toBe(body.IdentityId);
      const stolen = await identityCall('GetCredentialsForIdentity', { IdentityId: body.IdentityId, Logins: { [provider()]: otherIdToken } });
      expect(stolen).toMatchObject({ status: 400, body: { __type: 'NotAuthorizedException' } });
      const unknown = await identityCall('GetCredentialsForIdentity', {
        IdentityId: 'local:00000000-0000-0000-0000-000000000000',
        Logins: { [provider()]: idToken },
      });
      // An unknown id and someone else's answer alike (as Cognito does): nothing tells which ids exist.
      const foreign = await identityCall('GetCredentialsForIdentity', { IdentityId: body.IdentityId, Logins: { [provider()]: otherIdToken } });
      expect(unknown).toEqual({ ...foreign, body: { ...foreign.body, message: expect.any(String) } });
      expect(unknown.body).toEqual({ __type: 'NotAuthorizedException', message: "Access to Identity 'local:00000000-0000-0000-0000-000000000000' is forbidden." });
    });

    it('refuses an expired id token', async () => {
      harness.clock.offsetMs = 2 * 3600_000;
      try {
        const { body } = await identityCall('GetId', { IdentityPoolId: IDENTITY_POOL_ID, Logins: { [provider()]: idToken } });
        expect(body.__type).toBe('NotAuthorizedException');
      } finally {
        harness.clock.offsetMs = 0;
      }
    });
  });

  describe('developer-authenticated identities (a backend vouches for its users)', () => {
    const backend = (credentials = ADMIN) =>
      new CognitoIdentityClient({ endpoint: harness.issuerBaseUrl, region: REGION, credentials, maxAttempts: 1 });
    const openIdToken = (userId: string, extra: { IdentityId?: string; TokenDuration?: number } = {}, client = backend()) =>
      client.send(new GetOpenIdTokenForDeveloperIdentityCommand({ IdentityPoolId: IDENTITY_POOL_ID, Logins: { [DEVELOPER_PROVIDER]: userId }, ...extra }));
    const credentialsForIdentity = (identityId: string, token: string) =>
      fromCognitoIdentity({
        identityId,
        logins: { 'cognito-identity.amazonaws.com': token },
        clientConfig: { endpoint: harness.issuerBaseUrl, region: REGION, maxAttempts: 1 },
      })();

    it('gives one stable identity per user id, whose OpenID token buys credentials for that identity only', async () => {
      const first = await openIdToken('application-1');
      const again = await openIdToken('application-1', { IdentityId: first.IdentityId });
      const other = await openIdToken('application-2');
      expect(first.IdentityId).toMatch(/^local:[0-9a-f-]{36}$/);
      expect(again.IdentityId).toBe(first.IdentityId);
      expect(other.IdentityId).not.toBe(first.IdentityId);

      const credentials = await credentialsForIdentity(first.IdentityId!, first.Token!);
      expect(credentials.identityId).toBe(first.IdentityId);
      const found = await lookupTemporaryCredentials(harness.db, credentials.accessKeyId);
      expect(found?.identityId).toBe(first.IdentityId);

      // One applicant's token is no key to another's identity; a forged token is nothing.
      await expect(credentialsForIdentity(other.IdentityId!, first.Token!)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      await expect(credentialsForIdentity(first.IdentityId!, `${first.Token!.slice(0, -3)}AAA`)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      // A user pool id token is not an OpenID token of the identity pool.
      await expect(credentialsForIdentity(first.IdentityId!, idToken)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    });

    it('looks up the identity of a user id without creating one, for the admin credentials only', async () => {
      const lookup = (DeveloperUserIdentifier: string, client = backend()) =>
        client.send(new LookupDeveloperIdentityCommand({ IdentityPoolId: IDENTITY_POOL_ID, DeveloperUserIdentifier, MaxResults: 1 }));
      await expect(lookup('application-lookup')).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
      await expect(lookup('application-lookup')).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
      const { IdentityId } = await openIdToken('application-lookup');
      await expect(lookup('application-lookup')).resolves.toMatchObject({ IdentityId, DeveloperUserIdentifierList: ['application-lookup'] });
      await expect(lookup('application-lookup', backend({ ...ADMIN, secretAccessKey: 'not-the-admin-secret-0000000000000000000' }))).rejects.toMatchObject({
        name: 'InvalidSignatureException',
      });
    });

    it('lets the OpenID token live TokenDuration seconds', async () => {
      const { IdentityId, Token } = await openIdToken('application-3', { TokenDuration: 60 });
      harness.clock.offsetMs = 61_000;
      try {
        await expect(credentialsForIdentity(IdentityId!, Token!)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      } finally {
        harness.clock.offsetMs = 0;
      }
      await expect(openIdToken('application-3', { TokenDuration: 86_401 })).rejects.toMatchObject({ name: 'InvalidParameterException' });
    });

    it('answers only the admin credentials, for the configured developer provider, and keeps user ids to their identity', async () => {
      await expect(openIdToken('application-4', {}, backend({ ...ADMIN, secretAccessKey: 'not-the-admin-secret-0000000000000000000' }))).rejects.toMatchObject({
        name: 'InvalidSignatureException',
      });
      const anonymous = await identityCall('GetOpenIdTokenForDeveloperIdentity', { IdentityPoolId: IDENTITY_POOL_ID, Logins: { [DEVELOPER_PROVIDER]: 'x' } });
      expect(anonymous.status).toBe(400);
      expect(anonymous.body.Token).toBeUndefined();
      await expect(
        backend().send(new GetOpenIdTokenForDeveloperIdentityCommand({ IdentityPoolId: IDENTITY_POOL_ID, Logins: { 'login.someone.else': 'application-4' } })),
      ).rejects.toMatchObject({ name: 'NotAuthorizedException' });
      const taken = await openIdToken('application-5');
      await expect(openIdToken('application-6', { IdentityId: taken.IdentityId })).rejects.toMatchObject({ name: 'ResourceConflictException' });
    });
  });
});
