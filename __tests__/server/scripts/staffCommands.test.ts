// `npm run admin -- staff …` over a running server: a member made by `add` signs in with the unmodified browser
// library (a password of their own in place of the temporary one, their authenticator app enrolled at the first
// sign-in) and gets their roles in the token; roles changed, accounts disabled, passwords and apps reset and
// lockouts ended as the identity service then enforces them; the audit trail, never a password.
import { AuthenticationDetails, type CognitoUser, type CognitoUserSession } from 'amazon-cognito-identity-js';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { adminProgram } from '../../../scripts/admin';
import { rolesOf, StaffError, temporaryPassword } from '../../../scripts/staffCommands';
import { endSignInLockout } from '../../../server/embedded/cognito';
import { browserUser, refresh } from '../embedded/cognito/browserClient';
import { poolCall } from '../embedded/cognito/harness';
import { answerPasswordVerifier } from '../embedded/cognito/srpClient';
import { describeEachDialect, logCollector } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';
import { reviewDependenciesOf } from '../onboarding/reviewDependencies';

const STAFF_POOL = { poolId: 'local_DiviloStaff1', clientId: 'divilostaff' };
const OWN_PASSWORD = 'Own-Staff-Password-2026';

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
    expect(() => rolesOf('reviewer,auditor')).toThrow(new StaffError('Unknown role "auditor": the roles are reviewer, approver, administrator, compliance'));
    expect(() => rolesOf(' , ')).toThrow(StaffError);
  });
});

describe('staff --help', () => {
  it('lists every staff command', async () => {
    let help = '';
    const program = adminProgram(async () => {
      throw new Error('no dependencies for help');
    }, () => undefined);
    program.configureOutput({ writeOut: (text) => void (help += text) });
    program.commands.find((command) => command.name() === 'staff')!.configureOutput({ writeOut: (text) => void (help += text) });
    await expect(program.parseAsync(['node', 'admin', 'staff', '--help'])).rejects.toMatchObject({ code: 'commander.helpDisplayed' });
    for (const command of ['add [options] <email>', 'reset [options] <email>', 'unlock <email>', 'disable <email>', 'enable <email>', 'roles [options] <email>', 'show <email>']) {
      expect(help).toContain(command);
    }
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

  /**
   * The program as `npm run admin` runs it; `terminal: false` is output to a pipe or a log, `embedded: false` the
   * staff pool on Amazon Cognito (whose lockout the server cannot end).
   */
  async function run(args: string[], { terminal = true, staffPool = true, embedded = true } = {}) {
    const lines: string[] = [];
    const shown: string[] = [];
    const deps = {
      ...reviewDependenciesOf(server),
      staffIdentity: staffPool ? server.app.staffIdentity : undefined,
      revokeStaffSessions: async (username: string) => {
        revoked.push(username);
        return 2;
      },
      endStaffLockout: embedded ? (username: string) => endSignInLockout(server.app.db, { poolId: STAFF_POOL.poolId }, username, Date.now()) : undefined,
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

  /**
   * The first sign-in as the back office's page makes it: the temporary password, a password of the member's own
   * (`chosen`), then MFA_SETUP with a new app's code. Answers the app's key too.
   */
  function firstSignIn(username: string, password: string, chosen = OWN_PASSWORD): Promise<{ session: CognitoUserSession; user: CognitoUser; secret: string }> {
    const user = browserUser(`${server.base}/cognito`, username, STAFF_POOL);
    let secret = '';
    return new Promise((resolve, reject) => {
      const callbacks = {
        onSuccess: (session: CognitoUserSession) => resolve({ session, user, secret }),
        onFailure: reject,
        newPasswordRequired: () => user.completeNewPasswordChallenge(chosen, {}, callbacks),
        mfaSetup: () => user.associateSoftwareToken(callbacks),
        associateSecretCode: (key: string) => {
          secret = key;
          user.verifySoftwareToken(codeNow(key), 'phone', callbacks);
        },
        totpRequired: () => reject(new Error('unexpected SOFTWARE_TOKEN_MFA')),
      };
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), callbacks);
    });
  }

  /** The challenges a password leads to (raw requests, the library's maths through OpenSSL), or its refusal. */
  async function challengeAfter(username: string, password: string): Promise<string> {
    try {
      return String((await answerPasswordVerifier(`${server.base}/cognito`, STAFF_POOL.poolId, STAFF_POOL.clientId, username, password)).ChallengeName);
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** After a reset: the new temporary password, a password of their own, and what the pool asks next. */
  async function challengeAfterNewPassword(username: string, password: string, chosen: string): Promise<string> {
    const asked = await answerPasswordVerifier(`${server.base}/cognito`, STAFF_POOL.poolId, STAFF_POOL.clientId, username, password);
    if (asked.ChallengeName !== 'NEW_PASSWORD_REQUIRED') return String(asked.ChallengeName);
    const answer = await poolCall(`${server.base}/cognito`, 'AWSCognitoIdentityProviderService.RespondToAuthChallenge', {
      ChallengeName: 'NEW_PASSWORD_REQUIRED',
      ClientId: STAFF_POOL.clientId,
      Session: asked.Session,
      ChallengeResponses: { USERNAME: username, NEW_PASSWORD: chosen },
    });
    return String(answer.body.ChallengeName ?? answer.body.__type);
  }

  async function add(email: string, roles: string) {
    const { lines, shown } = await run(['staff', 'add', email, '--roles', roles]);
    const password = /: (\S+)$/.exec(shown[0])![1];
    return { lines, shown, password };
  }

  it('adds a member who signs in with the temporary password shown, chooses their own, enrols an authenticator app and gets their roles in the token', async () => {
    const email = `lucia-${dialect}@divilo.es`;
    const { lines, shown, password } = await add(` Lucia-${dialect}@Divilo.ES`, 'approver,reviewer');
    expect(lines).toEqual([`Staff member ${email} added with the roles reviewer, approver.`]);
    expect(shown[1]).toMatch(/sign in with it within a day .* and choose their own, then enrol their authenticator app/);
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({
      username: email,
      status: 'FORCE_CHANGE_PASSWORD',
      enabled: true,
      roles: ['reviewer', 'approver'],
      authenticatorApp: false,
    });
    // The staff pool's own policy: twelve characters at least.
    expect(await challengeAfterNewPassword(email, password, 'Short-Pass1')).toBe('InvalidPasswordException');

    const { session } = await firstSignIn(email, password);
    expect(decodeJwt(session.getAccessToken().getJwtToken())).toMatchObject({ username: email, 'cognito:groups': ['reviewer', 'approver'] });
    expect(await server.app.staffIdentity!.verifyIdToken(session.getIdToken().getJwtToken())).toMatchObject({ email, email_verified: true, 'cognito:groups': ['reviewer', 'approver'] });
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({ status: 'CONFIRMED', authenticatorApp: true });
    // The temporary password is spent.
    expect(await challengeAfter(email, password)).toBe('Incorrect username or password.');

    const audit = await auditOf(email);
    expect(audit.map(({ actor, action, details }) => ({ actor, action, details }))).toEqual([{ actor: 'admin:marta', action: 'staff.added', details: { roles: ['reviewer', 'approver'] } }]);
    // The password only ever went to the terminal.
    expect(JSON.stringify(audit)).not.toContain(password);
    expect(lines.join('\n')).not.toContain(password);
    expect(logs.text()).not.toContain(password);
    expect(logs.text()).not.toContain(OWN_PASSWORD);
    // Not for want of logs: the identity service's requests are in them.
    expect(logs.text()).toContain('"url":"/cognito/"');
  });

  it('refuses an unknown role, a second add of a member, and an add whose password would not reach a terminal, making nothing', async () => {
    const email = `pablo-${dialect}@divilo.es`;
    await expect(run(['staff', 'add', email, '--roles', 'reviewer,auditor'])).rejects.toThrow('Unknown role "auditor": the roles are reviewer, approver, administrator');
    await expect(run(['staff', 'add', email, '--roles', 'reviewer'], { terminal: false })).rejects.toThrow(/run it on a terminal/);
    expect(await server.app.staffIdentity!.getUser(email)).toBeUndefined();
    expect(await auditOf(email)).toEqual([]);

    const { password } = await add(email, 'reviewer');
    // Added and not yet signed in is no add cut short: refused, and the password given stays the one.
    await expect(run(['staff', 'add', email, '--roles', 'approver'])).rejects.toThrow(`${email} is a staff member already: staff show, staff roles, staff reset`);
    expect(await server.app.staffIdentity!.groupsOf(email)).toEqual(['reviewer']);
    expect(await challengeAfter(email, password)).toBe('NEW_PASSWORD_REQUIRED');
    await expect(run(['staff', 'reset', email], { terminal: false })).rejects.toThrow('staff reset shows a password: run it on a terminal');
    await expect(run(['staff', 'reset', `nobody-${dialect}@divilo.es`])).rejects.toThrow(`No staff member nobody-${dialect}@divilo.es`);
    expect(await challengeAfter(email, password)).toBe('NEW_PASSWORD_REQUIRED');
    await expect(run(['staff', 'disable', `nobody-${dialect}@divilo.es`])).rejects.toThrow(`No staff member nobody-${dialect}@divilo.es`);
    await expect(run(['staff', 'roles', 'not-an-email', '--set', 'reviewer'])).rejects.toThrow('"not-an-email" is not an e-mail address');
  });

  it('finishes an add cut short after the member was made: a new temporary password, the roles, and the member signs in', async () => {
    const email = `nuria-${dialect}@divilo.es`;
    // Made, with a password nobody saw, and nothing recorded: the run stopped there.
    await server.app.staffIdentity!.createUser(email, undefined, { email }, { temporaryPassword: temporaryPassword() });
    const { password } = await add(email, 'administrator');
    const { session } = await firstSignIn(email, password);
    expect(decodeJwt(session.getIdToken().getJwtToken())['cognito:groups']).toEqual(['administrator']);
    expect((await auditOf(email)).map((entry) => entry.details)).toEqual([{ roles: ['administrator'], finished: true }]);
  });

  it('adds a member once when two adds run at the same moment: one password shown, the other refused', async () => {
    const email = `teo-${dialect}@divilo.es`;
    const outcomes = await Promise.allSettled([run(['staff', 'add', email, '--roles', 'reviewer']), run(['staff', 'add', email, '--roles', 'approver'])]);
    const added = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(added).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({ reason: new StaffError(`${email} is a staff member already: staff show, staff roles, staff reset`) });
    const password = /: (\S+)$/.exec(added[0].shown[0])![1];
    expect(await challengeAfter(email, password)).toBe('NEW_PASSWORD_REQUIRED');
    expect(await auditOf(email)).toHaveLength(1);
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
    expect(await challengeAfter(email, OWN_PASSWORD)).toBe('User is disabled.');
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({ enabled: false, authenticatorApp: true });

    await run(['staff', 'enable', email]);
    const signIn = new Promise<string>((resolve, reject) =>
      browserUser(`${server.base}/cognito`, email, STAFF_POOL).authenticateUser(new AuthenticationDetails({ Username: email, Password: OWN_PASSWORD }), {
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

  it("resets a member's password: their sessions end, the next sign-in chooses a new one and gives the app's code", async () => {
    const email = `alba-${dialect}@divilo.es`;
    const { password } = await add(email, 'reviewer');
    const { session, secret } = await firstSignIn(email, password);

    const { lines, shown } = await run(['staff', 'reset', email]);
    expect(lines).toEqual([`Staff member ${email} has a new temporary password; 2 session(s) ended.`]);
    expect(revoked).toEqual([email]);
    const temporary = /: (\S+)$/.exec(shown[0])![1];
    expect(temporary).not.toBe(password);
    expect(shown[1]).toMatch(/choose their own; their authenticator app's code is asked for as always/);
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({ status: 'FORCE_CHANGE_PASSWORD', authenticatorApp: true });
    // Their tokens renew no more; the old password is gone.
    const refreshed = await poolCall(`${server.base}/cognito`, 'AWSCognitoIdentityProviderService.InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: STAFF_POOL.clientId,
      AuthParameters: { REFRESH_TOKEN: session.getRefreshToken().getToken() },
    });
    expect(refreshed.body).toEqual({ __type: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
    expect(await challengeAfter(email, OWN_PASSWORD)).toBe('Incorrect username or password.');
    expect(await challengeAfterNewPassword(email, temporary, 'Second-Own-Password-2026')).toBe('SOFTWARE_TOKEN_MFA');
    expect(secret).not.toBe('');

    const audit = await auditOf(email);
    expect(audit.map(({ action, details }) => ({ action, details }))).toEqual([
      { action: 'staff.added', details: { roles: ['reviewer'] } },
      { action: 'staff.password_reset', details: { authenticatorForgotten: false, sessionsEnded: 2 } },
    ]);
    expect(JSON.stringify(audit)).not.toContain(temporary);
    expect(lines.join('\n')).not.toContain(temporary);
    expect(logs.text()).not.toContain(temporary);
  });

  it('resets a member who lost their phone: a new password and a new authenticator app at the next sign-in', async () => {
    const email = `bruno-${dialect}@divilo.es`;
    const { password } = await add(email, 'approver');
    const { secret: lostApp } = await firstSignIn(email, password);

    const { lines, shown } = await run(['staff', 'reset', email, '--authenticator']);
    expect(lines).toEqual([`Staff member ${email} has a new temporary password, their authenticator app forgotten; 2 session(s) ended.`]);
    expect(shown[1]).toMatch(/choose their own and enrol their authenticator app again/);
    expect(JSON.parse((await run(['staff', 'show', email])).lines.join('\n'))).toMatchObject({ status: 'FORCE_CHANGE_PASSWORD', authenticatorApp: false });
    const { session, secret } = await firstSignIn(email, /: (\S+)$/.exec(shown[0])![1], 'Third-Own-Password-2026');
    expect(secret).not.toBe(lostApp);
    expect(decodeJwt(session.getIdToken().getJwtToken())['cognito:groups']).toEqual(['approver']);
    expect((await auditOf(email)).at(-1)).toMatchObject({ action: 'staff.password_reset', details: { authenticatorForgotten: true, sessionsEnded: 2 } });

    // A member with no app enrolled yet: said so, and recorded as nothing forgotten.
    const newcomer = `carla-${dialect}@divilo.es`;
    await add(newcomer, 'reviewer');
    expect((await run(['staff', 'reset', newcomer, '--authenticator'])).lines[0]).toBe(
      `Staff member ${newcomer} has a new temporary password (they had no authenticator app enrolled); 2 session(s) ended.`,
    );
  });

  it('ends a lockout on the embedded service, and says on Amazon Cognito that only time ends one', async () => {
    const email = `dario-${dialect}@divilo.es`;
    const { password } = await add(email, 'reviewer');
    for (let attempt = 0; attempt < 5; attempt += 1) expect(await challengeAfter(email, 'Wrong-Password-2026')).toBe('Incorrect username or password.');
    // The client that guessed is locked out of the name, the right password included.
    expect(await challengeAfter(email, password)).toBe('Password attempts exceeded');

    await expect(run(['staff', 'unlock', email], { embedded: false })).rejects.toThrow(
      `Amazon Cognito has no call that ends a lockout: each lock ends by itself within about 15 minutes (sooner after fewer failures), and 15 minutes without an attempt by ${email} start the count afresh. A forgotten password or a lost authenticator app: staff reset`,
    );
    expect(await challengeAfter(email, password)).toBe('Password attempts exceeded');

    expect((await run(['staff', 'unlock', email])).lines).toEqual([`Staff member ${email} is no longer locked out.`]);
    expect(await challengeAfter(email, password)).toBe('NEW_PASSWORD_REQUIRED');
    expect((await run(['staff', 'unlock', email])).lines).toEqual([`Staff member ${email} is not locked out.`]);
    await challengeAfter(email, 'Wrong-Password-2026');
    expect((await run(['staff', 'unlock', email])).lines).toEqual([`Staff member ${email} was not locked out; 1 failed attempt(s) forgotten.`]);
    await expect(run(['staff', 'unlock', `nobody-${dialect}@divilo.es`])).rejects.toThrow(`No staff member nobody-${dialect}@divilo.es`);

    expect((await auditOf(email)).map(({ actor, action, details }) => ({ actor, action, details }))).toEqual([
      { actor: 'admin:marta', action: 'staff.added', details: { roles: ['reviewer'] } },
      // The five wrong passwords and the two tries refused while locked.
      { actor: 'admin:marta', action: 'staff.unlocked', details: { failures: 7, locked: true } },
      { actor: 'admin:marta', action: 'staff.unlocked', details: { failures: 1, locked: false } },
    ]);
  });

  it('refuses every staff command when the configuration has no staff pool', async () => {
    for (const args of [['add', 'x@divilo.es', '--roles', 'reviewer'], ['reset', 'x@divilo.es'], ['unlock', 'x@divilo.es'], ['disable', 'x@divilo.es'], ['show', 'x@divilo.es']]) {
      await expect(run(['staff', ...args], { staffPool: false })).rejects.toThrow('This configuration has no staff pool: set STAFF_USER_POOL_ID and STAFF_CLIENT_ID');
    }
  });
});
