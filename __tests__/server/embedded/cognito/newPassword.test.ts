// Temporary passwords as Cognito treats them: the first sign-in answers NEW_PASSWORD_REQUIRED, the user chooses their
// own by the pool's policy, then the sign-in goes on (the authenticator's enrolment in the staff pool, the tokens in
// the customers'); a temporary password expires; an administrator's new one voids a sign-in under way; a lost app is
// forgotten with AdminDeleteSoftwareToken; the host ends a lockout. Driven with the unmodified
// amazon-cognito-identity-js and AWS SDK, and with raw requests where the exact answer is the subject.
import {
  AdminCreateUserCommand,
  AdminDeleteSoftwareTokenCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { AuthenticationDetails, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { endSignInLockout } from '../../../../server/embedded/cognito';
import { browserUser } from './browserClient';
import { ADMIN, CLIENT_ID, POOL_ID, REGION, STAFF, STAFF_POOL, poolCall, startHarness, type Harness } from './harness';
import { answerPasswordVerifier, SrpClientError } from './srpClient';
import { describeEachDialect } from '../../helpers';

const { poolId: STAFF_POOL_ID, clientId: STAFF_CLIENT_ID } = STAFF;
const TEMPORARY = 'Temporary-Pass-2026';
const CHOSEN = 'Chosen-Password-2026';
const DAY_MS = 86_400_000;

let harness: Harness;
let admin: CognitoIdentityProviderClient;
let userCount = 0;
/** The server's clock; near the real time, which the SRP TIMESTAMP is checked against. */
const clock = { ms: 0 };

jest.setTimeout(60_000);

const codeNow = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.ms });

/**
 * A member of the staff pool made as `staff add` makes one: a temporary password, the e-mail set and verified; `agoMs`
 * before now (the server's clock moved back for it, and the request signed at that time).
 */
async function newStaffUser(agoMs = 0): Promise<string> {
  const username = `member${(userCount += 1)}@divilo.test`;
  clock.ms = Date.now() - agoMs;
  const client = agoMs === 0 ? admin : new CognitoIdentityProviderClient({ region: REGION, endpoint: harness.issuerBaseUrl, credentials: ADMIN, systemClockOffset: -agoMs });
  await client.send(
    new AdminCreateUserCommand({
      UserPoolId: STAFF_POOL_ID,
      Username: username,
      MessageAction: 'SUPPRESS',
      TemporaryPassword: TEMPORARY,
      UserAttributes: [
        { Name: 'email', Value: username },
        { Name: 'email_verified', Value: 'true' },
      ],
    }),
  );
  if (client !== admin) client.destroy();
  clock.ms = Date.now();
  return username;
}

const statusOf = async (username: string, UserPoolId = STAFF_POOL_ID) => (await admin.send(new AdminGetUserCommand({ UserPoolId, Username: username }))).UserStatus;

/** The password step by raw requests: the pool's answer (its next challenge), or the refusal as the library reports it. */
async function passwordStep(username: string, password: string, pool = STAFF): Promise<Record<string, unknown>> {
  try {
    return await answerPasswordVerifier(harness.endpoint, pool.poolId, pool.clientId, username, password);
  } catch (error) {
    const { code, message } = error as SrpClientError;
    return { refused: { code, message } };
  }
}

const respondNewPassword = (session: unknown, responses: Record<string, string>, clientId = STAFF_CLIENT_ID) =>
  poolCall(harness.endpoint, 'AWSCognitoIdentityProviderService.RespondToAuthChallenge', {
    ChallengeName: 'NEW_PASSWORD_REQUIRED',
    ClientId: clientId,
    Session: session,
    ChallengeResponses: responses,
  });

describeEachDialect('temporary passwords and lost authenticator apps in the embedded pools', (dialect) => {
  beforeAll(async () => {
    harness = await startHarness(dialect, {
      additionalPools: [{ ...STAFF_POOL, passwordPolicy: { minimumLength: 12, temporaryPasswordValidityDays: 1 } }],
      // The name's own limit as low as the client's: the host's unlock ends what three failures locked.
      lockout: { maxFailures: 3, lockSeconds: 600, nameMaxFailures: 3 },
      now: () => clock.ms,
    });
    admin = new CognitoIdentityProviderClient({ region: REGION, endpoint: harness.issuerBaseUrl, credentials: ADMIN });
  });

  afterAll(async () => {
    admin.destroy();
    await harness.close();
  });

  beforeEach(() => {
    clock.ms = Date.now();
  });

  it("answers a temporary password's sign-in with NEW_PASSWORD_REQUIRED as Cognito does, checks the new one, then asks for the app", async () => {
    const username = await newStaffUser();
    expect(await statusOf(username)).toBe('FORCE_CHANGE_PASSWORD');

    const asked = await passwordStep(username, TEMPORARY);
    expect(asked).toMatchObject({
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      ChallengeParameters: { USER_ID_FOR_SRP: username, requiredAttributes: '[]', userAttributes: JSON.stringify({ email: username, email_verified: 'true' }) },
    });
    expect(Object.keys(asked.ChallengeParameters as object).sort()).toEqual(['USER_ID_FOR_SRP', 'requiredAttributes', 'userAttributes']);

    // The staff pool's policy (12 characters): refused, and the same Session takes another.
    expect(await respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: 'Short-Pass1' })).toEqual({
      status: 400,
      body: { __type: 'InvalidPasswordException', message: 'Password does not conform to policy: Password not long enough' },
    });
    expect((await respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: 'no-capitals-here-1' })).body.__type).toBe('InvalidPasswordException');
    expect((await respondNewPassword(asked.Session, { USERNAME: username })).body).toEqual({ __type: 'InvalidParameterException', message: 'Missing required parameter NEW_PASSWORD' });

    const chosen = await respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: CHOSEN });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ ChallengeName: 'MFA_SETUP', ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: username } });
    expect(await statusOf(username)).toBe('CONFIRMED');
    // Answered once.
    expect((await respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: 'Another-Password-2026' })).body).toEqual({
      __type: 'NotAuthorizedException',
      message: 'Invalid session for the user, session is expired.',
    });

    expect(await passwordStep(username, TEMPORARY)).toEqual({ refused: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
    // The app is not enrolled yet: the new password leads to its enrolment.
    expect(await passwordStep(username, CHOSEN)).toMatchObject({ ChallengeName: 'MFA_SETUP' });
  });

  it('takes the browser library from the temporary password through a new one and the enrolment to the tokens', async () => {
    const username = await newStaffUser();
    const user = browserUser(harness.endpoint, username, STAFF);
    const seen: { attributes?: unknown; required?: unknown } = {};
    const session = await new Promise<CognitoUserSession>((resolve, reject) => {
      const callbacks = {
        onSuccess: resolve,
        onFailure: reject,
        newPasswordRequired: (attributes: unknown, required: unknown) => {
          Object.assign(seen, { attributes, required });
          user.completeNewPasswordChallenge(CHOSEN, {}, callbacks);
        },
        mfaSetup: () => user.associateSoftwareToken(callbacks),
        associateSecretCode: (secret: string) => user.verifySoftwareToken(codeNow(secret), 'phone', callbacks),
        totpRequired: () => reject(new Error('unexpected SOFTWARE_TOKEN_MFA')),
      };
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: TEMPORARY }), callbacks);
    });
    expect(seen).toEqual({ attributes: { email: username, email_verified: 'true' }, required: [] });
    expect(decodeJwt(session.getIdToken().getJwtToken())).toMatchObject({ 'cognito:username': username, email: username });
    expect(await passwordStep(username, CHOSEN)).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
  });

  it("signs a customer of the pool without MFA straight in after the new password, by that pool's policy", async () => {
    const username = 'X7100001L';
    await admin.send(new AdminCreateUserCommand({ UserPoolId: POOL_ID, Username: username, MessageAction: 'SUPPRESS', TemporaryPassword: 'Temp-Pass1' }));
    const asked = await passwordStep(username, 'Temp-Pass1', { poolId: POOL_ID, clientId: CLIENT_ID });
    expect(asked.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    // Eight characters are enough here; the staff pool's twelve are its own.
    const done = await respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: 'Own-Pas1' }, CLIENT_ID);
    expect(done.body).toMatchObject({ ChallengeParameters: {}, AuthenticationResult: { TokenType: 'Bearer' } });
    expect(await statusOf(username, POOL_ID)).toBe('CONFIRMED');
  });

  it('refuses attributes written with the new password: the clients write none', async () => {
    const username = await newStaffUser();
    const asked = await passwordStep(username, TEMPORARY);
    const answer = await respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: CHOSEN, 'userAttributes.email': 'someone@else.test' });
    expect(answer.body).toEqual({ __type: 'NotAuthorizedException', message: 'A client attempted to write unauthorized attribute' });
    expect(await statusOf(username)).toBe('FORCE_CHANGE_PASSWORD');
  });

  it("expires a temporary password after the pool's validity: told only to whoever knows it, renewed by an administrator", async () => {
    // Made a day ago, less a minute: still valid.
    const fresh = await newStaffUser(DAY_MS - 60_000);
    expect((await passwordStep(fresh, TEMPORARY)).ChallengeName).toBe('NEW_PASSWORD_REQUIRED');

    const username = await newStaffUser(DAY_MS + 1000);
    expect(await passwordStep(username, TEMPORARY)).toEqual({
      refused: { code: 'NotAuthorizedException', message: 'Temporary password has expired and must be reset by an administrator.' },
    });
    expect(await passwordStep(username, 'Wrong-Password-2026')).toEqual({ refused: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });

    await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: STAFF_POOL_ID, Username: username, Password: 'Renewed-Temp-2026', Permanent: false }));
    expect(await statusOf(username)).toBe('FORCE_CHANGE_PASSWORD');
    expect((await passwordStep(username, 'Renewed-Temp-2026')).ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
  });

  it("sets one of two new passwords sent at once with one Session, and refuses the other", async () => {
    const username = await newStaffUser();
    const asked = await passwordStep(username, TEMPORARY);
    const candidates = ['First-Choice-2026', 'Second-Choice-2026', 'Third-Choice-2026'];
    const answers = await Promise.all(candidates.map((candidate) => respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: candidate })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
    const winner = candidates[answers.findIndex((answer) => answer.status === 200)];
    for (const answer of answers.filter((each) => each.status === 400)) expect(answer.body.message).toBe('Invalid session for the user, session is expired.');
    for (const candidate of candidates) {
      const step = await passwordStep(username, candidate);
      if (candidate === winner) expect(step.ChallengeName).toBe('MFA_SETUP');
      else expect(step).toEqual({ refused: { code: 'NotAuthorizedException', message: 'Incorrect username or password.' } });
    }
  });

  it("keeps an administrator's new temporary password over a new password chosen with a Session of the old one, at any moment", async () => {
    const username = await newStaffUser();
    const before = await passwordStep(username, TEMPORARY);
    await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: STAFF_POOL_ID, Username: username, Password: 'Second-Temp-2026', Permanent: false }));
    expect((await respondNewPassword(before.Session, { USERNAME: username, NEW_PASSWORD: CHOSEN })).body.message).toBe('Invalid session for the user, session is expired.');

    // The two at the same moment: whichever comes first, the administrator's password is the one left.
    const during = await passwordStep(username, 'Second-Temp-2026');
    await Promise.all([
      respondNewPassword(during.Session, { USERNAME: username, NEW_PASSWORD: CHOSEN }),
      admin.send(new AdminSetUserPasswordCommand({ UserPoolId: STAFF_POOL_ID, Username: username, Password: 'Third-Temp-2026', Permanent: false })),
    ]);
    expect(await statusOf(username)).toBe('FORCE_CHANGE_PASSWORD');
    expect((await passwordStep(username, 'Third-Temp-2026')).ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    expect((await passwordStep(username, CHOSEN)).refused).toEqual({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
  });

  it('forgets a lost app with AdminDeleteSoftwareToken: the next sign-in enrols a new one', async () => {
    const username = await newStaffUser();
    const asked = await passwordStep(username, TEMPORARY);
    const setup = await respondNewPassword(asked.Session, { USERNAME: username, NEW_PASSWORD: CHOSEN });
    const call = (target: string, body: object) => poolCall(harness.endpoint, `AWSCognitoIdentityProviderService.${target}`, body);
    const associated = await call('AssociateSoftwareToken', { Session: setup.body.Session });
    const verified = await call('VerifySoftwareToken', { Session: associated.body.Session, UserCode: codeNow(String(associated.body.SecretCode)) });
    await call('RespondToAuthChallenge', { ChallengeName: 'MFA_SETUP', ClientId: STAFF_CLIENT_ID, Session: verified.body.Session, ChallengeResponses: { USERNAME: username } });
    expect((await admin.send(new AdminGetUserCommand({ UserPoolId: STAFF_POOL_ID, Username: username }))).UserMFASettingList).toEqual(['SOFTWARE_TOKEN_MFA']);
    expect((await passwordStep(username, CHOSEN)).ChallengeName).toBe('SOFTWARE_TOKEN_MFA');

    await admin.send(new AdminDeleteSoftwareTokenCommand({ UserPoolId: STAFF_POOL_ID, Username: username }));
    expect((await admin.send(new AdminGetUserCommand({ UserPoolId: STAFF_POOL_ID, Username: username }))).UserMFASettingList).toBeUndefined();
    expect((await passwordStep(username, CHOSEN)).ChallengeName).toBe('MFA_SETUP');
    // Nothing to forget is no error; an unknown user is, and the pool without MFA has no apps.
    await admin.send(new AdminDeleteSoftwareTokenCommand({ UserPoolId: STAFF_POOL_ID, Username: username }));
    await expect(admin.send(new AdminDeleteSoftwareTokenCommand({ UserPoolId: STAFF_POOL_ID, Username: 'nobody@divilo.test' }))).rejects.toMatchObject({ name: 'UserNotFoundException' });
    await admin.send(new AdminCreateUserCommand({ UserPoolId: POOL_ID, Username: 'X7100002L', MessageAction: 'SUPPRESS' }));
    await expect(admin.send(new AdminDeleteSoftwareTokenCommand({ UserPoolId: POOL_ID, Username: 'X7100002L' }))).rejects.toMatchObject({ name: 'SoftwareTokenMFANotFoundException' });
  });

  it('ends a lockout from the host, for that pool and name only', async () => {
    const username = await newStaffUser();
    expect(await endSignInLockout(harness.db, { poolId: STAFF_POOL_ID }, username, clock.ms)).toBeUndefined();
    for (let attempt = 0; attempt < 3; attempt += 1) await passwordStep(username, 'Wrong-Password-2026');
    expect(await passwordStep(username, TEMPORARY)).toEqual({ refused: { code: 'NotAuthorizedException', message: 'Password attempts exceeded' } });
    // The customers' pool has no such name: nothing there.
    expect(await endSignInLockout(harness.db, { poolId: POOL_ID, main: true }, username, clock.ms)).toBeUndefined();

    // Attempts during the lock neither count nor extend it: the lock is what there is to end.
    expect(await endSignInLockout(harness.db, { poolId: STAFF_POOL_ID }, username, clock.ms)).toEqual({ failures: 0, locked: true });
    expect((await passwordStep(username, TEMPORARY)).ChallengeName).toBe('NEW_PASSWORD_REQUIRED');

    await passwordStep(username, 'Wrong-Password-2026');
    expect(await endSignInLockout(harness.db, { poolId: STAFF_POOL_ID }, username, clock.ms)).toEqual({ failures: 1, locked: false });
  });
});
