// The staff commands as they run on AWS, against an AWS emulator (moto) with IAM enforced: `npm run admin -- staff
// add` and `staff reset` on a pseudo-terminal (util-linux's `script`, as an operator's terminal: they show a password
// there only), signed as the server's IAM user with exactly the deployed role's policy, on the staff pool made from
// the deployment's template. The member's status and groups are read back with the emulator's administrator, and
// the first sign-in with the unmodified amazon-cognito-identity-js is asked for a new password, then for the app.
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AdminGetUserCommand, AdminListGroupsForUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { AuthenticationDetails, CognitoUser, CognitoUserPool } from 'amazon-cognito-identity-js';
import { onPostgres, postgresUrlInSchema } from '../server/helpers';
import { deployToMoto, describeWhenAvailable, motoUnavailable, REGION, serverEnvOnMoto, startMoto, synthesizedTemplate, type Deployment, type Moto } from './moto';

const root = path.resolve(__dirname, '../..');
const scriptAvailable = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const unavailable = motoUnavailable() ?? (scriptAvailable ? undefined : "util-linux's script is missing: the staff commands that show a password need a terminal");
const describeOnMoto = describeWhenAvailable('AWS emulator staff commands', unavailable);

jest.setTimeout(180_000);

/** What a sign-in with the temporary password was asked, step by step, as the back office's page sees it. */
interface FirstSignIn {
  newPasswordRequired?: { userAttributes: unknown; requiredAttributes: unknown };
  next?: string;
}

describeOnMoto('staff accounts on "AWS" (moto, IAM enforced)', () => {
  const postgres = process.env.DATABASE_URL!;
  const schema = `staff_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  let moto: Moto;
  let deployment: Deployment;
  let dataDir: string;
  let env: Record<string, string>;
  let administrator: CognitoIdentityProviderClient;

  beforeAll(async () => {
    moto = await startMoto();
    deployment = await deployToMoto(moto, synthesizedTemplate(), 'http://127.0.0.1:8080');
    administrator = new CognitoIdentityProviderClient({ region: REGION, endpoint: moto.endpoint, credentials: moto.admin });
    await onPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-aws-staff-'));
    // The server's configuration on "AWS": its database, and the AWS credentials of its role.
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_NO_WARNINGS: '1',
      DATA_DIR: dataDir,
      DATABASE_URL: postgresUrlInSchema(postgres, schema),
      SERVER_SECRET: Buffer.alloc(32, 5).toString('base64'),
      LOG_LEVEL: 'warn',
      ...serverEnvOnMoto(moto, deployment),
    };
  }, 180_000);

  afterAll(async () => {
    administrator?.destroy();
    await moto?.stop();
    await onPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const adminArgs = (args: string[]) => [process.execPath, '--import', 'tsx', path.join('scripts', 'admin.ts'), '--reviewer', 'marta', ...args];
  const settled = (run: Promise<{ stdout: string; stderr: string }>) =>
    run.then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );
  /** `npm run admin` with its output to a pipe, as a one-off task's goes to a log. */
  const admin = (args: string[]) => settled(promisify(execFile)(adminArgs(args)[0], adminArgs(args).slice(1), { cwd: root, env }));
  /** The same on a terminal: `script` gives it one, and its output is what the operator reads there. */
  const adminOnTerminal = (args: string[]) => {
    const command = adminArgs(args)
      .map((word) => `'${word.replace(/'/g, "'\\''")}'`)
      .join(' ');
    return settled(promisify(execFile)('script', ['-qec', command, '/dev/null'], { cwd: root, env }));
  };
  const shownPassword = (output: string) => /shown this once and kept nowhere: (\S+)/.exec(output)?.[1];

  /** The back office page's first sign-in: the unmodified library, SRP, at the staff pool; stops where it is asked for the app. */
  function firstSignIn(username: string, password: string, newPassword: string): Promise<FirstSignIn> {
    const items = new Map<string, string>();
    const storage = { setItem: (k: string, v: string) => void items.set(k, v), getItem: (k: string) => items.get(k) ?? null, removeItem: (k: string) => void items.delete(k), clear: () => items.clear() };
    const pool = new CognitoUserPool({ UserPoolId: deployment.staffUserPoolId, ClientId: deployment.staffClientId, endpoint: moto.endpoint, Storage: storage });
    const user = new CognitoUser({ Username: username, Pool: pool, Storage: storage });
    const seen: FirstSignIn = {};
    return new Promise((resolve, reject) => {
      const callbacks = {
        onSuccess: () => resolve({ ...seen, next: 'tokens' }),
        onFailure: reject,
        newPasswordRequired: (userAttributes: unknown, requiredAttributes: unknown) => {
          seen.newPasswordRequired = { userAttributes, requiredAttributes };
          user.completeNewPasswordChallenge(newPassword, {}, callbacks);
        },
        mfaSetup: () => resolve({ ...seen, next: 'MFA_SETUP' }),
        totpRequired: () => resolve({ ...seen, next: 'SOFTWARE_TOKEN_MFA' }),
      };
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), callbacks);
    });
  }

  const member = async (username: string) => {
    const user = await administrator.send(new AdminGetUserCommand({ UserPoolId: deployment.staffUserPoolId, Username: username }));
    const groups = await administrator.send(new AdminListGroupsForUserCommand({ UserPoolId: deployment.staffUserPoolId, Username: username }));
    return {
      status: user.UserStatus,
      attributes: Object.fromEntries((user.UserAttributes ?? []).filter((attribute) => attribute.Name !== 'sub').map((attribute) => [attribute.Name, attribute.Value])),
      groups: (groups.Groups ?? []).map((group) => group.GroupName).sort(),
    };
  };
  const auditOf = (username: string) =>
    onPostgres(async (client) => (await client.query<{ actor: string; action: string; details: unknown }>(`select actor, action, details from "${schema}".audit_log where subject = $1 order by id`, [`staff:${username}`])).rows);

  it('adds a member with a temporary password and the roles as groups; the first sign-in is asked for a new password, then the app', async () => {
    const username = 'lucia@divilo.es';
    const added = await adminOnTerminal(['staff', 'add', 'Lucia@Divilo.ES', '--roles', 'reviewer,approver']);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`Staff member ${username} added with the roles reviewer, approver.`);
    const temporary = shownPassword(added.stdout)!;
    expect(temporary).toMatch(/^\S{20}$/);

    expect(await member(username)).toEqual({ status: 'FORCE_CHANGE_PASSWORD', attributes: { email: username, email_verified: 'true' }, groups: ['approver', 'reviewer'] });
    expect(JSON.parse((await admin(['staff', 'show', username])).stdout)).toMatchObject({ username, status: 'FORCE_CHANGE_PASSWORD', enabled: true, roles: ['reviewer', 'approver'] });

    const signIn = await firstSignIn(username, temporary, 'Own-Staff-Password-2026');
    expect(signIn).toEqual({ newPasswordRequired: { userAttributes: { email: username, email_verified: 'true' }, requiredAttributes: [] }, next: 'MFA_SETUP' });
    expect((await member(username)).status).toBe('CONFIRMED');

    const audit = await auditOf(username);
    expect(audit.map(({ actor, action }) => ({ actor, action }))).toEqual([{ actor: 'admin:marta', action: 'staff.added' }]);
    expect(JSON.stringify(audit)).not.toContain(temporary);
  });

  it('refuses to show a password anywhere but a terminal, and resets a member to a new temporary password on one', async () => {
    const username = 'jorge@divilo.es';
    const added = await adminOnTerminal(['staff', 'add', username, '--roles', 'reviewer']);
    expect(await firstSignIn(username, shownPassword(added.stdout)!, 'Own-Staff-Password-2026')).toMatchObject({ next: 'MFA_SETUP' });
    expect((await member(username)).status).toBe('CONFIRMED');

    const piped = await admin(['staff', 'reset', username]);
    expect(piped).toMatchObject({ code: 1, stdout: '' });
    expect(piped.stderr).toContain('staff reset shows a password: run it on a terminal');
    expect((await member(username)).status).toBe('CONFIRMED');

    const reset = await adminOnTerminal(['staff', 'reset', username]);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(`Staff member ${username} has a new temporary password.`);
    expect(await member(username)).toMatchObject({ status: 'FORCE_CHANGE_PASSWORD', groups: ['reviewer'] });
    expect(await firstSignIn(username, shownPassword(reset.stdout)!, 'Second-Own-Password-2026')).toMatchObject({ newPasswordRequired: { requiredAttributes: [] }, next: 'MFA_SETUP' });

    expect((await auditOf(username)).map(({ action, details }) => ({ action, details: typeof details === 'string' ? JSON.parse(details) : details }))).toEqual([
      { action: 'staff.added', details: { roles: ['reviewer'] } },
      { action: 'staff.password_reset', details: { authenticatorForgotten: false, sessionsEnded: 0 } },
    ]);
  });

  it("says that Amazon Cognito's lockout ends by itself, changing nothing", async () => {
    const unlock = await admin(['staff', 'unlock', 'jorge@divilo.es']);
    expect(unlock.code).toBe(1);
    expect(unlock.stderr).toContain('Amazon Cognito has no call that ends a lockout: each lock ends by itself within about 15 minutes (sooner after fewer failures), and 15 minutes without an attempt by jorge@divilo.es start the count afresh.');
    expect((await auditOf('jorge@divilo.es')).filter((entry) => entry.action === 'staff.unlocked')).toEqual([]);
  });
});
