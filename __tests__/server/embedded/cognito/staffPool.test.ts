// The staff pool beside the customers' on one endpoint: its own users and issuer, groups in the tokens, and a
// second factor by authenticator app, driven with the unmodified amazon-cognito-identity-js and AWS SDK.
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserMFAPreferenceCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { AuthenticationDetails, type CognitoUser, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { browserUser, refresh, signIn, type ClientError } from './browserClient';
import { ADMIN, POOL_ID, REGION, STAFF, STAFF_POOL, poolCall, startHarness, type Harness } from './harness';
import { describeEachDialect } from '../../helpers';

const { poolId: STAFF_POOL_ID, clientId: STAFF_CLIENT_ID } = STAFF;
const PASSWORD = 'Staff-Password-1';
const STEP_MS = 30_000;

let harness: Harness;
let admin: CognitoIdentityProviderClient;
let userCount = 0;
/** The server's clock, moved by the tests only; near the real time, which the SRP TIMESTAMP is checked against. */
const clock = { ms: 0 };

jest.setTimeout(60_000);

const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });

async function newStaffUser(username = `staff${(userCount += 1)}@divilo.test`, groups: string[] = []): Promise<string> {
  await admin.send(new AdminCreateUserCommand({ UserPoolId: STAFF_POOL_ID, Username: username, MessageAction: 'SUPPRESS' }));
  await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: STAFF_POOL_ID, Username: username, Password: PASSWORD, Permanent: true }));
  for (const group of groups) await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: STAFF_POOL_ID, Username: username, GroupName: group }));
  return username;
}

/** A first sign-in: MFA_SETUP, then the app is associated and verified with its code at the server's time. */
function enrol(username: string): Promise<{ session: CognitoUserSession; secret: string; user: CognitoUser }> {
  const user = browserUser(harness.endpoint, username, STAFF);
  return new Promise((resolve, reject) => {
    let secret = '';
    const callbacks = {
      onSuccess: (session: CognitoUserSession) => resolve({ session, secret, user }),
      onFailure: reject,
      mfaSetup: () => user.associateSoftwareToken(callbacks),
      associateSecretCode: (secretCode: string) => {
        secret = secretCode;
        user.verifySoftwareToken(codeAt(secretCode, clock.ms), 'phone', callbacks);
      },
      totpRequired: () => reject(new Error('unexpected SOFTWARE_TOKEN_MFA')),
    };
    user.authenticateUser(new AuthenticationDetails({ Username: username, Password: PASSWORD }), callbacks);
  });
}

/** A later sign-in: the password, then SOFTWARE_TOKEN_MFA answered with `code`. */
function signInWithCode(username: string, code: string, password = PASSWORD): Promise<CognitoUserSession> {
  const user: CognitoUser = browserUser(harness.endpoint, username, STAFF);
  return new Promise((resolve, reject) => {
    user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), {
      onSuccess: resolve,
      onFailure: reject,
      mfaSetup: () => reject(new Error('unexpected MFA_SETUP')),
      totpRequired: () => user.sendMFACode(code, { onSuccess: resolve, onFailure: reject }, 'SOFTWARE_TOKEN_MFA'),
    });
  });
}

async function refusal(attempt: Promise<unknown>): Promise<Pick<ClientError, 'code' | 'message'>> {
  try {
    await attempt;
  } catch (error) {
    const { code, message } = error as ClientError;
    return { code, message };
  }
  throw new Error('expected a refusal');
}

describeEachDialect('the staff pool of the embedded identity service', (dialect) => {
  beforeAll(async () => {
    harness = await startHarness(dialect, {
      additionalPools: [STAFF_POOL],
      lockout: { maxFailures: 3, lockSeconds: 600 },
      now: () => clock.ms,
    });
    admin = new CognitoIdentityProviderClient({ region: REGION, endpoint: harness.issuerBaseUrl, credentials: ADMIN });
  });

  afterAll(async () => {
    admin.destroy();
    await harness.close();
  });

  beforeEach(() => {
    // A second into the current step, so a test's own moves decide which step a code falls in.
    clock.ms = Math.floor(Date.now() / STEP_MS) * STEP_MS + 1000;
  });

  it('has a new staff user enrol an authenticator app at first sign-in, and issues tokens of the staff pool with cognito:groups', async () => {
    const username = await newStaffUser(undefined, ['approver', 'reviewer', 'administrator']);
    await admin.send(new AdminRemoveUserFromGroupCommand({ UserPoolId: STAFF_POOL_ID, Username: username, GroupName: 'administrator' }));
    const listed = await admin.send(new AdminListGroupsForUserCommand({ UserPoolId: STAFF_POOL_ID, Username: username }));
    expect(listed.Groups?.map((group) => group.GroupName)).toEqual(['reviewer', 'approver']);

    const { session, secret, user } = await enrol(username);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const jwks = createLocalJWKSet((await (await fetch(`${harness.issuerBaseUrl}/${STAFF_POOL_ID}/.well-known/jwks.json`)).json()) as JSONWebKeySet);
    const issuer = `${harness.issuerBaseUrl}/${STAFF_POOL_ID}`;
    const { payload: idClaims } = await jwtVerify(session.getIdToken().getJwtToken(), jwks, { issuer, audience: STAFF_CLIENT_ID, currentDate: new Date(clock.ms) });
    expect(idClaims).toMatchObject({ 'cognito:username': username, 'cognito:groups': ['reviewer', 'approver'], token_use: 'id' });
    expect(decodeJwt(session.getAccessToken().getJwtToken())).toMatchObject({
      iss: issuer,
      client_id: STAFF_CLIENT_ID,
      'cognito:groups': ['reviewer', 'approver'],
      token_use: 'access',
    });

    await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: STAFF_POOL_ID, Username: username, GroupName: 'administrator' }));
    const refreshed = await refresh(user, session);
    expect(decodeJwt(refreshed.getAccessToken().getJwtToken())['cognito:groups']).toEqual(['reviewer', 'approver', 'administrator']);
  });

  it('lets a signed-in user replace the app by access token, after which only the new app codes sign in', async () => {
    const username = await newStaffUser();
    const { secret: oldSecret, user } = await enrol(username);
    let newSecret = '';
    await new Promise<void>((resolve, reject) =>
      user.associateSoftwareToken({
        associateSecretCode: (secretCode) => resolve(void (newSecret = secretCode)),
        onFailure: reject,
      }),
    );
    const verify = (code: string) =>
      new Promise((resolve, reject) => user.verifySoftwareToken(code, 'new phone', { onSuccess: resolve, onFailure: reject }));
    expect((await refusal(verify(codeAt(oldSecret, clock.ms)))).code).toBe('EnableSoftwareTokenMFAException');
    await expect(verify(codeAt(newSecret, clock.ms))).resolves.toEqual({ Status: 'SUCCESS' });
    const preference = new Promise((resolve, reject) =>
      user.setUserMfaPreference(null, { PreferredMfa: true, Enabled: true }, (error, result) => (error ? reject(error) : resolve(result))),
    );
    await expect(preference).resolves.toBe('SUCCESS');
    const described = await admin.send(new AdminGetUserCommand({ UserPoolId: STAFF_POOL_ID, Username: username }));
    expect(described).toMatchObject({ UserMFASettingList: ['SOFTWARE_TOKEN_MFA'], PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' });

    clock.ms += STEP_MS;
    expect((await refusal(signInWithCode(username, codeAt(oldSecret, clock.ms)))).code).toBe('CodeMismatchException');
    expect((await signInWithCode(username, codeAt(newSecret, clock.ms))).isValid()).toBe(true);

    const notEnrolled = await newStaffUser();
    const enable = admin.send(
      new AdminSetUserMFAPreferenceCommand({ UserPoolId: STAFF_POOL_ID, Username: notEnrolled, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }),
    );
    await expect(enable).rejects.toMatchObject({ name: 'InvalidParameterException', message: 'User has not verified software token mfa' });
  });

  it('asks later sign-ins for the code, refuses a wrong one, and refuses a code used before', async () => {
    const username = await newStaffUser(undefined, ['reviewer']);
    const { secret } = await enrol(username);
    clock.ms += STEP_MS;
    const code = codeAt(secret, clock.ms);

    const wrong = code === '000000' ? '111111' : '000000';
    expect(await refusal(signInWithCode(username, wrong))).toEqual({ code: 'CodeMismatchException', message: 'Invalid code received for user' });
    const session = await signInWithCode(username, code);
    expect(decodeJwt(session.getIdToken().getJwtToken())['cognito:groups']).toEqual(['reviewer']);
    expect(await refusal(signInWithCode(username, code))).toEqual({ code: 'ExpiredCodeException', message: 'Your software token has already been used once.' });
    // The enrolment's own code is used too.
    expect((await refusal(signInWithCode(username, codeAt(secret, clock.ms - STEP_MS)))).code).toBe('ExpiredCodeException');
  });

  it('lets one of two sign-ins answering the same code at once through, and refuses the other as a replay', async () => {
    const username = await newStaffUser(undefined, ['approver']);
    const { secret } = await enrol(username);
    clock.ms += STEP_MS;
    const code = codeAt(secret, clock.ms);
    const outcomes = await Promise.allSettled([signInWithCode(username, code), signInWithCode(username, code), signInWithCode(username, code)]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [(outcome.reason as { code: string }).code] : []));
    expect(refused).toEqual(['ExpiredCodeException', 'ExpiredCodeException']);
  });

  it('accepts a code one step old and refuses one two steps old', async () => {
    const username = await newStaffUser();
    const { secret } = await enrol(username);
    clock.ms += 2 * STEP_MS;
    const oneStepOld = codeAt(secret, clock.ms);
    clock.ms += STEP_MS;
    expect((await signInWithCode(username, oneStepOld)).isValid()).toBe(true);

    clock.ms += STEP_MS;
    const twoStepsOld = codeAt(secret, clock.ms);
    clock.ms += 2 * STEP_MS;
    expect((await refusal(signInWithCode(username, twoStepsOld))).code).toBe('CodeMismatchException');
  });

  it('counts wrong codes towards the lockout as wrong passwords, which then refuses even the right password', async () => {
    const username = await newStaffUser();
    const { secret } = await enrol(username);
    clock.ms += STEP_MS;
    const code = codeAt(secret, clock.ms);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await refusal(signInWithCode(username, wrong))).code).toBe('CodeMismatchException');
    expect(await refusal(signInWithCode(username, code))).toEqual({ code: 'NotAuthorizedException', message: 'Password attempts exceeded' });
  });

  it('keeps the pools apart: one name is two users, and the customers sign in without a second factor', async () => {
    const username = 'X7000001L';
    await harness.identity.createUser(username, '+34600000000');
    await harness.identity.setPassword(username, 'Customer-Pass-1', true);
    await newStaffUser(username);

    const customer = await signIn(harness.endpoint, username, 'Customer-Pass-1');
    const customerClaims = decodeJwt(customer.getIdToken().getJwtToken());
    expect(customerClaims.iss).toBe(`${harness.issuerBaseUrl}/${POOL_ID}`);
    expect(customerClaims).not.toHaveProperty('cognito:groups');
    const { session } = await enrol(username);
    expect(decodeJwt(session.getIdToken().getJwtToken()).sub).not.toBe(customerClaims.sub);

    const associate = await poolCall(harness.endpoint, 'AWSCognitoIdentityProviderService.AssociateSoftwareToken', {
      AccessToken: customer.getAccessToken().getJwtToken(),
    });
    expect(associate.body.__type).toBe('SoftwareTokenMFANotFoundException');
    const unknownGroup = admin.send(new AdminAddUserToGroupCommand({ UserPoolId: STAFF_POOL_ID, Username: username, GroupName: 'auditor' }));
    await expect(unknownGroup).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});
