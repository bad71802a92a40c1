// The back office page's sign-in steps (src/features/backOffice/staffSignIn.ts, the unmodified
// amazon-cognito-identity-js) against the server's own staff pool, for a member made as `staff add` makes one: the
// temporary password, a password of their own by the staff pool's policy, the authenticator app's enrolment, and
// the session the ID token buys; then a later sign-in with the app's code.
import { Secret, TOTP } from 'otpauth';
import type { SignInConfig } from '../../../src/features/backOffice/backOfficeApi';
import { staffSignIn } from '../../../src/features/backOffice/staffSignIn';
import { temporaryPassword } from '../../../scripts/staffCommands';
import { describeEachDialect } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';
import { startStaffSession } from './staff';

jest.setTimeout(120_000);

describeEachDialect("the back office page's sign-in steps against the staff pool", (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  let config: SignInConfig;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
    config = (await (await fetch(`${server.base}/staff-api/config`)).json()) as SignInConfig;
  });
  afterAll(() => server.close());

  it('leads a new member from the temporary password through their own to the app and a session, then asks the code', async () => {
    const username = `elena-${dialect}@divilo.es`;
    const temporary = temporaryPassword();
    await server.app.staffIdentity!.createUser(username, undefined, { email: username, email_verified: 'true' }, { temporaryPassword: temporary });
    await server.app.staffIdentity!.addToGroup(username, 'reviewer');

    const first = staffSignIn(config);
    expect(await first.password(username, temporary)).toEqual({ step: 'new-password' });
    // The page's rule took it; the pool is the judge: refused, and the same step takes another.
    await expect(first.newPassword('Abcdef-1')).rejects.toEqual({ code: 'InvalidPasswordException', message: 'Password does not conform to policy: Password not long enough' });
    const enrol = await first.newPassword('Own-Staff-Password-2026');
    if (enrol.step !== 'enrol') throw new Error(`expected the enrolment, got ${enrol.step}`);
    const totp = new TOTP({ secret: Secret.fromBase32(enrol.secret) });
    const signedIn = await first.enrol(totp.generate());
    if (signedIn.step !== 'signed-in') throw new Error(`expected the tokens, got ${signedIn.step}`);
    first.forget();
    const session = await startStaffSession(server, signedIn.idToken);
    expect(session).toMatchObject({ status: 201, body: { username, roles: ['reviewer'] } });

    const later = staffSignIn(config);
    await expect(later.password(username, temporary)).rejects.toEqual({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    expect(await later.password(username, 'Own-Staff-Password-2026')).toEqual({ step: 'code' });
    // The enrolment's code is used: the next window's, which the pool takes too.
    expect((await later.code(totp.generate({ timestamp: Date.now() + 30_000 }))).step).toBe('signed-in');
  });
});
