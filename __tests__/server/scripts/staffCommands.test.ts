// `npm run admin -- staff …` over a running server: a member made by `add` signs in with the unmodified browser
// library (their authenticator app enrolled at the first sign-in) and gets their roles in the token; roles
// changed and accounts disabled as the identity service then enforces them; the audit trail, never a password.
import { AuthenticationDetails, type CognitoUser, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { adminProgram } from '../../../scripts/admin';
import { rolesOf, StaffError, temporaryPassword } from '../../../scripts/staffCommands';
import { browserUser, refresh, type ClientError } from '../embedded/cognito/browserClient';
import { poolCall } from '../embedded/cognito/harness';
import { describeEachDialect, logCollector } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';
import { reviewDependenciesOf } from '../onboarding/reviewDependencies';

const STAFF_POOL = { poolId: 'local_DiviloStaff1', clientId: 'divilostaff' };

describe('the temporary password', () => {
  it('has 20 characters, every class the pools ask for, and differs every time', () => {
    const passwords = Array.from({ length: 200 }, temporaryPassword);
    for (const password of passwords) {
      expect(password).toHaveLength(20);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[0-9]/);
      expect(password).toMatch(/[^A-Za-z0-9]/);
      // Nothing a terminal or a shell would mangle, nothing read as another character.
      expect(password).not.toMatch(/[\s'"`\\0O1lI]/);
    }
    expect(new Set(passwords).size).toBe(passwords.length);
  });
});

describe('the roles', () => {
  it("are taken in the pool's order, each once; an unknown one or none is refused", () => {
    expect(rolesOf(' approver, reviewer,approver ')).toEqual(['reviewer', 'approver']);
    expect(() => rolesOf('reviewer,auditor')).toThrow(new StaffError('Unknown role "auditor": the roles are reviewer, approver, administrator'));
    expect(() => rolesOf(' , ')).toThrow(StaffError);
  });
});

describeEachDialect('npm run admin -- staff on a running server', (dialect) => {
  const logs = logCollector();
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  /** The members whose back-office sessions the commands ended. */
  let revoked: string[] = [];

  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { LOG_LEVEL: 'debug' }, { logStream: logs.stream });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    revoked = [];
  });

  /** The program as `npm run admin` runs it; `terminal: false` is output to a pipe or a log. */
  async function run(args: string[], { terminal = true, staffPool = true } = {}) {
    const lines: string[] = [];
    const shown: string[] = [];
    const deps = {
      ...reviewDependenciesOf(server),
      staffIdentity: staffPool ? server.app.staffIdentity : undefined,
      revokeStaffSessions: async (username: string) => {
        revoked.push(username);
        return 2;
      },
      close: async () => undefined,
    };
    await adminProgram(async () => deps, (line) => lines.push(line), 140, terminal ? (line) => shown.push(line) : undefined).parseAsync([
      'node',
      'admin',
      '--reviewer',
      'marta',
      ...args,
    ]);
    return { lines, shown };
  }

  const auditOf = async (email: string) => server.app.auditLog.listBySubject(`staff:${email}`);
  const codeNow = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() });

  /** The first sign-in as the back office's page makes it: the password, then MFA_SETUP with a new app's code. */
  function firstSignIn(username: string, password: string): Promise<{ session: CognitoUserSession; user: CognitoUser }> {
    const user = browserUser(`${server.base}/cognito`, username, STAFF_POOL);
    return new Promise((resolve, reject) => {
      const callbacks = {
        onSuccess: (session: CognitoUserSession) => resolve({ session, user }),
        onFailure: reject,
        newPasswordRequired: () => reject(new Error('unexpected NEW_PASSWORD_REQUIRED')),
        mfaSetup: () => user.associateSoftwareToken(callbacks),
        associateSecretCode: (secret: string) => user.verifySoftwareToken(codeNow(secret), 'phone', callbacks),
        totpRequired: () => reject(new Error('unexpected SOFTWARE_TOKEN_MFA')),
      };
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), callbacks);
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

  async function add(email: string, roles: string) {
    const { lines, shown } = await run(['staff', 'add', email, '--roles', roles]);
    const password = /: (\S+)$/.exec(shown[0])![1];
    return { lines, shown, password };
  }

  it('adds a member who signs in with the password shown, enrols an authenticator app and gets their roles in the token', async () => {
    const email = `lucia-${dialect}@divilo.es`;
    const { lines, shown, password } = await add(` Lucia-${dialect}@Divilo.ES`, 'approver,reviewer');
    expect(lines).toEqual([`Staff member ${email} added with the roles reviewer, approver.`]);
    expect(shown[1]).toMatch(/sign in at once: the first sign-in enrols their authenticator app/);
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({
      username: email,
      status: 'CONFIRMED',
      enabled: true,
      roles: ['reviewer', 'approver'],
      authenticatorApp: false,
    });

    const { session } = await firstSignIn(email, password);
    expect(decodeJwt(session.getAccessToken().getJwtToken())).toMatchObject({ username: email, 'cognito:groups': ['reviewer', 'approver'] });
    expect(await server.app.staffIdentity!.verifyIdToken(session.getIdToken().getJwtToken())).toMatchObject({ email, 'cognito:groups': ['reviewer', 'approver'] });
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({ authenticatorApp: true });

    const audit = await auditOf(email);
    expect(audit.map(({ actor, action, details }) => ({ actor, action, details }))).toEqual([{ actor: 'admin:marta', action: 'staff.added', details: { roles: ['reviewer', 'approver'] } }]);
    // The password only ever went to the terminal.
    expect(JSON.stringify(audit)).not.toContain(password);
    expect(lines.join('\n')).not.toContain(password);
    expect(logs.text()).not.toContain(password);
    // Not for want of logs: the identity service's requests are in them.
    expect(logs.text()).toContain('"url":"/cognito/"');
  });

  it('refuses an unknown role, a second add of a member, and an add whose password would not reach a terminal, making nothing', async () => {
    const email = `pablo-${dialect}@divilo.es`;
    await expect(run(['staff', 'add', email, '--roles', 'reviewer,auditor'])).rejects.toThrow('Unknown role "auditor": the roles are reviewer, approver, administrator');
    await expect(run(['staff', 'add', email, '--roles', 'reviewer'], { terminal: false })).rejects.toThrow(/run it on a terminal/);
    expect(await server.app.staffIdentity!.getUser(email)).toBeUndefined();
    expect(await auditOf(email)).toEqual([]);

    await add(email, 'reviewer');
    await expect(run(['staff', 'add', email, '--roles', 'approver'])).rejects.toThrow(`${email} is a staff member already`);
    expect(await server.app.staffIdentity!.groupsOf(email)).toEqual(['reviewer']);
    await expect(run(['staff', 'disable', `nobody-${dialect}@divilo.es`])).rejects.toThrow(`No staff member nobody-${dialect}@divilo.es`);
    await expect(run(['staff', 'roles', 'not-an-email', '--set', 'reviewer'])).rejects.toThrow('"not-an-email" is not an e-mail address');
  });

  it('finishes an add cut short before the password: a new password, the roles, and the member signs in', async () => {
    const email = `nuria-${dialect}@divilo.es`;
    await server.app.staffIdentity!.createUser(email, undefined, { email });
    const { password } = await add(email, 'administrator');
    const { session } = await firstSignIn(email, password);
    expect(decodeJwt(session.getIdToken().getJwtToken())['cognito:groups']).toEqual(['administrator']);
    expect((await auditOf(email)).map((entry) => entry.details)).toEqual([{ roles: ['administrator'], finished: true }]);
  });

  it("replaces a member's roles, ends their sessions, and their refreshed tokens carry the new ones", async () => {
    const email = `ines-${dialect}@divilo.es`;
    const { password } = await add(email, 'reviewer');
    const { session, user } = await firstSignIn(email, password);

    const changed = await run(['staff', 'roles', email, '--set', 'approver,administrator']);
    expect(changed.lines).toEqual([`Staff member ${email} now has the roles approver, administrator (had reviewer).`]);
    expect(revoked).toEqual([email]);
    expect(await server.app.staffIdentity!.groupsOf(email)).toEqual(['approver', 'administrator']);
    expect(decodeJwt((await refresh(user, session)).getIdToken().getJwtToken())['cognito:groups']).toEqual(['approver', 'administrator']);

    revoked = [];
    const same = await run(['staff', 'roles', email, '--set', 'administrator,approver']);
    expect(same.lines).toEqual([`Staff member ${email} has the roles approver, administrator already.`]);
    expect(revoked).toEqual([]);
    await expect(run(['staff', 'roles', email, '--set', 'auditor'])).rejects.toThrow('Unknown role "auditor"');
    expect(await server.app.staffIdentity!.groupsOf(email)).toEqual(['approver', 'administrator']);

    const audit = await auditOf(email);
    expect(audit.map(({ action, details }) => ({ action, details }))).toEqual([
      { action: 'staff.added', details: { roles: ['reviewer'] } },
      { action: 'staff.roles_changed', details: { from: ['reviewer'], to: ['approver', 'administrator'], sessionsEnded: 2 } },
    ]);
  });

  it('disables a member: no sign-in, no refresh, their sessions ended; enabled, they sign in again', async () => {
    const email = `jorge-${dialect}@divilo.es`;
    const { password } = await add(email, 'reviewer');
    const { session } = await firstSignIn(email, password);

    expect((await run(['staff', 'disable', email])).lines).toEqual([`Staff member ${email} disabled; 2 session(s) ended.`]);
    expect(revoked).toEqual([email]);
    // One refresh request: the browser library would retry it with backoff for seconds.
    const refreshed = await poolCall(`${server.base}/cognito`, 'AWSCognitoIdentityProviderService.InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: STAFF_POOL.clientId,
      AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
    });
    expect(refreshed).toEqual({ status: 400, body: { __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' } });
    expect(await refusal(firstSignIn(email, password))).toEqual({ code: 'NotAuthorizedException', message: 'User is disabled.' });
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({ enabled: false, authenticatorApp: true });

    await run(['staff', 'enable', email]);
    const signIn = new Promise<string>((resolve, reject) =>
      browserUser(`${server.base}/cognito`, email, STAFF_POOL).authenticateUser(new AuthenticationDetails({ Username: email, Password: password }), {
        onSuccess: () => reject(new Error('signed in without the second factor')),
        onFailure: reject,
        totpRequired: (challenge) => resolve(challenge),
      }),
    );
    expect(await signIn).toBe('SOFTWARE_TOKEN_MFA');
    expect((await auditOf(email)).map(({ actor, action, details }) => ({ actor, action, details }))).toEqual([
      { actor: 'admin:marta', action: 'staff.added', details: { roles: ['reviewer'] } },
      { actor: 'admin:marta', action: 'staff.disabled', details: { sessionsEnded: 2 } },
      { actor: 'admin:marta', action: 'staff.enabled', details: undefined },
    ]);
  });

  it('refuses every staff command when the configuration has no staff pool', async () => {
    for (const args of [['add', 'x@divilo.es', '--roles', 'reviewer'], ['disable', 'x@divilo.es'], ['show', 'x@divilo.es']]) {
      await expect(run(['staff', ...args], { staffPool: false })).rejects.toThrow('This configuration has no staff pool: set STAFF_USER_POOL_ID and STAFF_CLIENT_ID');
    }
  });
});
