import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { browserUser, authenticate, refresh, signIn } from './browserClient';
import { ADMIN, CLIENT_ID, POOL_ID, REGION, refreshOnce, startHarness, type Harness } from './harness';
import { srpSignInError } from './srpClient';
import { describeEachDialect } from '../../helpers';

let harness: Harness;

// Each sign-in runs the browser library's pure-JavaScript SRP maths (about half a second); the refusals are read
// from the same requests with the maths done through OpenSSL (srpClient.ts).
jest.setTimeout(60_000);

describeEachDialect('the embedded user pool admin API', (dialect) => {
  beforeAll(async () => {
    harness = await startHarness(dialect);
  });

  afterAll(async () => {
    await harness.close();
  });

  function client(credentials = ADMIN) {
    return new CognitoIdentityProviderClient({ region: REGION, endpoint: harness.issuerBaseUrl, credentials, maxAttempts: 1 });
  }

  describe('the admin API through @aws-sdk/client-cognito-identity-provider', () => {
    it('creates, reads, updates, disables, enables, signs out and deletes a user', async () => {
      const admin = client();
      const created = await admin.send(
        new AdminCreateUserCommand({
          UserPoolId: POOL_ID,
          Username: 'B12345678',
          MessageAction: 'SUPPRESS',
          UserAttributes: [
            { Name: 'phone_number', Value: '+34612345678' },
            { Name: 'custom:applicationId', Value: 'app-1' },
          ],
        }),
      );
      expect(created.User).toMatchObject({ Username: 'B12345678', Enabled: true, UserStatus: 'FORCE_CHANGE_PASSWORD' });
      const sub = created.User!.Attributes!.find((attribute) => attribute.Name === 'sub')!.Value!;
      expect(sub).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.User!.UserCreateDate).toBeInstanceOf(Date);
      expect(Math.abs(created.User!.UserCreateDate!.getTime() - Date.now())).toBeLessThan(5000);

      await expect(
        admin.send(new AdminCreateUserCommand({ UserPoolId: POOL_ID, Username: 'B12345678', MessageAction: 'SUPPRESS' })),
      ).rejects.toMatchObject({ name: 'UsernameExistsException' });

      // No password yet: the sign-in fails like any wrong password.
      expect((await srpSignInError(harness.endpoint, POOL_ID, CLIENT_ID, 'B12345678', 'Any-Password-1')).message).toBe('Incorrect username or password.');

      await expect(
        admin.send(new AdminSetUserPasswordCommand({ UserPoolId: POOL_ID, Username: 'B12345678', Password: 'short', Permanent: true })),
      ).rejects.toMatchObject({ name: 'InvalidPasswordException' });
      await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: POOL_ID, Username: 'B12345678', Password: 'Strong-Pass-42', Permanent: true }));

      const fetched = await admin.send(new AdminGetUserCommand({ UserPoolId: POOL_ID, Username: 'B12345678' }));
      expect(fetched).toMatchObject({ Username: 'B12345678', Enabled: true, UserStatus: 'CONFIRMED' });
      expect(fetched.UserAttributes).toEqual(
        expect.arrayContaining([
          { Name: 'sub', Value: sub },
          { Name: 'phone_number', Value: '+34612345678' },
          { Name: 'custom:applicationId', Value: 'app-1' },
        ]),
      );

      await admin.send(
        new AdminUpdateUserAttributesCommand({
          UserPoolId: POOL_ID,
          Username: 'B12345678',
          UserAttributes: [{ Name: 'phone_number', Value: '+34699999999' }],
        }),
      );
      const updated = await harness.identity.getUser('B12345678');
      expect(updated?.attributes).toMatchObject({ phone_number: '+34699999999', phone_number_verified: 'false', 'custom:applicationId': 'app-1' });
      await expect(
        admin.send(new AdminUpdateUserAttributesCommand({ UserPoolId: POOL_ID, Username: 'B12345678', UserAttributes: [{ Name: 'sub', Value: 'x' }] })),
      ).rejects.toMatchObject({ name: 'InvalidParameterException' });
      await expect(
        admin.send(
          new AdminUpdateUserAttributesCommand({ UserPoolId: POOL_ID, Username: 'B12345678', UserAttributes: [{ Name: 'phone_number', Value: '612' }] }),
        ),
      ).rejects.toMatchObject({ name: 'InvalidParameterException', message: 'Invalid phone number format.' });

      const user = browserUser(harness.endpoint, 'B12345678');
      const session = await authenticate(user, 'B12345678', 'Strong-Pass-42');
      await admin.send(new AdminDisableUserCommand({ UserPoolId: POOL_ID, Username: 'B12345678' }));
      expect((await admin.send(new AdminGetUserCommand({ UserPoolId: POOL_ID, Username: 'B12345678' }))).Enabled).toBe(false);
      expect((await srpSignInError(harness.endpoint, POOL_ID, CLIENT_ID, 'B12345678', 'Strong-Pass-42')).message).toBe('User is disabled.');
      await admin.send(new AdminEnableUserCommand({ UserPoolId: POOL_ID, Username: 'B12345678' }));
      const again = browserUser(harness.endpoint, 'B12345678');
      const second = await authenticate(again, 'B12345678', 'Strong-Pass-42');
      // Disabling revoked the first session's refresh token; the second one still works.
      expect((await refreshOnce(harness.endpoint, session.getRefreshToken().getToken())).body).toEqual({
        __type: 'NotAuthorizedException',
        message: 'Refresh Token has been revoked',
      });
      await expect(refresh(again, second)).resolves.toBeDefined();

      await admin.send(new AdminUserGlobalSignOutCommand({ UserPoolId: POOL_ID, Username: 'B12345678' }));
      expect((await refreshOnce(harness.endpoint, second.getRefreshToken().getToken())).body).toMatchObject({
        __type: 'NotAuthorizedException',
        message: 'Refresh Token has been revoked',
      });

      await admin.send(new AdminDeleteUserCommand({ UserPoolId: POOL_ID, Username: 'B12345678' }));
      await expect(admin.send(new AdminGetUserCommand({ UserPoolId: POOL_ID, Username: 'B12345678' }))).rejects.toMatchObject({
        name: 'UserNotFoundException',
      });
      expect(await harness.identity.getUser('B12345678')).toBeUndefined();
      expect((await srpSignInError(harness.endpoint, POOL_ID, CLIENT_ID, 'B12345678', 'Strong-Pass-42')).message).toBe('Incorrect username or password.');
    });

    it('refuses the admin calls of another user pool', async () => {
      await expect(client().send(new AdminGetUserCommand({ UserPoolId: 'local_Other1', Username: 'x' }))).rejects.toMatchObject({
        name: 'ResourceNotFoundException',
      });
    });

    it('refuses every admin call signed with a wrong secret or an unknown key', async () => {
      const wrongSecret = client({ ...ADMIN, secretAccessKey: `${ADMIN.secretAccessKey}x` });
      const unknownKey = client({ accessKeyId: 'AKIANOTTHEADMINKEY1', secretAccessKey: ADMIN.secretAccessKey });
      const commands = [
        new AdminCreateUserCommand({ UserPoolId: POOL_ID, Username: 'intruder', MessageAction: 'SUPPRESS' }),
        new AdminSetUserPasswordCommand({ UserPoolId: POOL_ID, Username: 'intruder', Password: 'Strong-Pass-42', Permanent: true }),
        new AdminGetUserCommand({ UserPoolId: POOL_ID, Username: 'intruder' }),
        new AdminUpdateUserAttributesCommand({ UserPoolId: POOL_ID, Username: 'intruder', UserAttributes: [] }),
        new AdminDisableUserCommand({ UserPoolId: POOL_ID, Username: 'intruder' }),
        new AdminEnableUserCommand({ UserPoolId: POOL_ID, Username: 'intruder' }),
        new AdminUserGlobalSignOutCommand({ UserPoolId: POOL_ID, Username: 'intruder' }),
        new AdminDeleteUserCommand({ UserPoolId: POOL_ID, Username: 'intruder' }),
      ];
      for (const command of commands) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one loop over different command types
        await expect(wrongSecret.send(command as any)).rejects.toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 400 } });
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        await expect(unknownKey.send(command as any)).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
      }
      expect(await harness.identity.getUser('intruder')).toBeUndefined();
    });

    it('refuses unsigned admin calls, and tampered or stale signed ones', async () => {
      const post = (target: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(harness.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${target}`, ...headers },
          body: JSON.stringify(body),
        });
      const unsigned = await post('AdminCreateUser', { UserPoolId: POOL_ID, Username: 'intruder', MessageAction: 'SUPPRESS' });
      expect(unsigned.status).toBe(400);
      expect(await unsigned.json()).toEqual({ __type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' });

      // Capture a genuine signed request, then replay it with another body.
      const captured: { headers?: Record<string, string>; body?: string } = {};
      const capturing = client();
      capturing.middlewareStack.add(
        (next) => async (args) => {
          const request = args.request as { headers: Record<string, string>; body: string };
          captured.headers = { ...request.headers };
          captured.body = request.body;
          return next(args);
        },
        { step: 'finalizeRequest', priority: 'low' },
      );
      await expect(capturing.send(new AdminGetUserCommand({ UserPoolId: POOL_ID, Username: 'nobody' }))).rejects.toMatchObject({
        name: 'UserNotFoundException',
      });
      expect(captured.headers?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAEMBEDDEDADMIN01\/\d{8}\/eu-west-1\/cognito-idp\/aws4_request/);
      const { host: _host, 'content-length': _length, ...signedHeaders } = captured.headers!;
      const replay = await fetch(harness.endpoint, {
        method: 'POST',
        headers: signedHeaders,
        body: JSON.stringify({ UserPoolId: POOL_ID, Username: 'someone-else' }),
      });
      expect(replay.status).toBe(400);
      expect(((await replay.json()) as { __type: string }).__type).toBe('InvalidSignatureException');

      // The same genuine request, replayed as is, is accepted (AWS allows replays within the skew window)...
      const same = await fetch(harness.endpoint, { method: 'POST', headers: signedHeaders, body: captured.body });
      expect(((await same.json()) as { __type: string }).__type).toBe('UserNotFoundException');
      // ...but not once the server clock is past the allowed skew.
      harness.clock.offsetMs = 6 * 60_000;
      try {
        const stale = await fetch(harness.endpoint, { method: 'POST', headers: signedHeaders, body: captured.body });
        expect(stale.status).toBe(400);
        expect(await stale.json()).toMatchObject({ __type: 'InvalidSignatureException', message: expect.stringMatching(/^Signature expired/) });
      } finally {
        harness.clock.offsetMs = 0;
      }
    });

    it('sets up a user through the identity service that then signs in with the browser client', async () => {
      const { sub } = await harness.identity.createUser('C7654321D', '+34611111111', { 'custom:kind': 'freelancer' });
      await harness.identity.setPassword('C7654321D', 'Another-Pass-7', true);
      const session = await signIn(harness.endpoint, 'C7654321D', 'Another-Pass-7');
      const claims = await harness.identity.verifyIdToken(session.getIdToken().getJwtToken());
      expect(claims).toMatchObject({ sub, 'cognito:username': 'C7654321D', phone_number: '+34611111111', 'custom:kind': 'freelancer' });
      await expect(harness.identity.createUser('C7654321D', '+34611111111')).rejects.toMatchObject({ code: 'USERNAME_EXISTS' });
      await expect(harness.identity.setPassword('nobody', 'Another-Pass-7', true)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    });
  });
});
