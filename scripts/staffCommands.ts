// `npm run admin -- staff …`: the bank's staff, members of the staff pool whose groups are their roles
// (docs/back-office.md, "Staff accounts"). The same SDK calls on the embedded pool and on Amazon Cognito.
import { randomInt } from 'node:crypto';
import { Command } from 'commander';
import { STAFF_ROLES, type StaffRole } from '../server/plugins/identity';
import type { AuditLogRepository } from '../server/repositories/auditLogRepository';
import { IdentityError, type IdentityService } from '../server/services/identity';

/** A refusal or a failure told to the operator in one line; nothing else is printed. */
export class StaffError extends Error {}

type StaffIdentity = Pick<
  IdentityService,
  'createUser' | 'setPassword' | 'getUser' | 'disableUser' | 'enableUser' | 'globalSignOut' | 'addToGroup' | 'removeFromGroup' | 'groupsOf' | 'deleteSoftwareToken'
>;

export interface StaffDependencies {
  /** The staff pool's identity service; absent when the configuration has no staff pool (no back office). */
  staffIdentity?: StaffIdentity;
  /** Where every change is recorded; `add` reads it to tell an add cut short from a member made before. */
  auditLog: Pick<AuditLogRepository, 'append' | 'listBySubject'>;
  /** Each member's addition, taken once (staffAdditionRepository): of two adds at the same moment, one adds. */
  additions: { claim(username: string, now: Date): Promise<boolean> };
  /**
   * Ends the member's back-office sessions and answers how many there were; called, when given, after a disable,
   * a reset and a change of roles (the roles are read at sign-in).
   */
  revokeStaffSessions?: (username: string) => Promise<number>;
  /**
   * Ends the member's lockout after too many wrong passwords or codes and answers what there was; given where the
   * staff pool is the embedded service's, which keeps its lockout in the server's database. Amazon Cognito has no
   * call that ends one.
   */
  endStaffLockout?: (username: string) => Promise<{ failures: number; locked: boolean } | undefined>;
}

export interface StaffOutput {
  out: (line: string) => void;
  /**
   * Where a temporary password is shown: the operator's terminal. Absent when the output is not one (a pipe, a
   * file, a one-off task's log): `add` and `reset` then refuse, as the password must not be kept anywhere.
   */
  terminal?: (line: string) => void;
  /** Who runs the command, as the audit trail records it after `admin:`. */
  operator: () => string;
}

/** The symbols Cognito counts as such, less the quotes, the backslash and the space, which terminals and shells mangle. */
const SYMBOLS = '^$*.[]{}()?!@#%&/,><:;|_~=+-';
// Without 0/O and 1/l/I: the member may have to type it.
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const TEMPORARY_PASSWORD_LENGTH = 20;
/** When the staff pool's temporary password expires (TemporaryPasswordValidityDays, deploy/lib/identity.ts). */
const VALIDITY = 'within a day (it expires then: staff reset gives a new one)';

/**
 * A password of TEMPORARY_PASSWORD_LENGTH characters drawn with crypto's randomInt, with a lower-case and an
 * upper-case letter, a digit and a symbol: any pool's policy up to that length (the staff pool asks for 12).
 */
export function temporaryPassword(): string {
  const pick = (set: string) => set[randomInt(set.length)];
  const all = LOWER + UPPER + DIGITS + SYMBOLS;
  const characters = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
  while (characters.length < TEMPORARY_PASSWORD_LENGTH) characters.push(pick(all));
  // Fisher–Yates: the four required characters anywhere.
  for (let index = characters.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other], characters[index]];
  }
  return characters.join('');
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The member's username: their e-mail, lower-cased (one spelling per member). */
function usernameOf(email: string): string {
  const username = email.trim().toLowerCase();
  if (!EMAIL.test(username)) throw new StaffError(`${JSON.stringify(email)} is not an e-mail address`);
  return username;
}

/** `reviewer,approver` as a set of the staff's roles; an unknown one is refused before anything is done. */
export function rolesOf(list: string): StaffRole[] {
  const named = [...new Set(list.split(',').map((role) => role.trim()).filter(Boolean))];
  const unknown = named.filter((role) => !(STAFF_ROLES as readonly string[]).includes(role));
  if (unknown.length > 0) throw new StaffError(`Unknown role ${unknown.map((role) => JSON.stringify(role)).join(', ')}: the roles are ${STAFF_ROLES.join(', ')}`);
  if (named.length === 0) throw new StaffError(`Name at least one role: ${STAFF_ROLES.join(', ')}`);
  // In the pool's order, as the tokens list them.
  return STAFF_ROLES.filter((role) => named.includes(role));
}

const ALREADY = (username: string) => new StaffError(`${username} is a staff member already: staff show, staff roles, staff reset`);

/** A member's groups in the roles' order, whatever order the pool lists them in (Cognito promises none); others last. */
function inRoleOrder(groups: string[]): string[] {
  return [...STAFF_ROLES.filter((role) => groups.includes(role)), ...groups.filter((group) => !(STAFF_ROLES as readonly string[]).includes(group))];
}

/** The identity service's refusals in the operator's words; anything else (network, credentials) as it is. */
async function told<T>(username: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof IdentityError && error.code === 'USER_NOT_FOUND') throw new StaffError(`No staff member ${username}`);
    // Made by another add at the same moment: only that one shows a password.
    if (error instanceof IdentityError && error.code === 'USERNAME_EXISTS') throw ALREADY(username);
    throw error;
  }
}

/** `add` and `reset` show a password: never where anything could keep it. */
function terminalFor(command: string, terminal: StaffOutput['terminal']): (line: string) => void {
  if (!terminal) throw new StaffError(`staff ${command} shows a password: run it on a terminal, whose output no log keeps (docs/back-office.md)`);
  return terminal;
}

export function staffCommand(deps: () => Promise<StaffDependencies & { close(): Promise<void> }>, { out, terminal, operator }: StaffOutput): Command {
  const staff = new Command('staff').description("the bank's staff: their accounts in the staff pool and their roles").exitOverride();
  const withStaff = (action: (identity: StaffIdentity, d: StaffDependencies, ...args: string[]) => Promise<void>) => async (...args: string[]) => {
    const d = await deps();
    try {
      if (!d.staffIdentity) throw new StaffError('This configuration has no staff pool: set STAFF_USER_POOL_ID and STAFF_CLIENT_ID (docs/back-office.md)');
      await action(d.staffIdentity, d, ...args);
    } finally {
      await d.close();
    }
  };
  /** Asked before anything is done: a change is never made without a name to record it under. */
  const actorOf = () => `admin:${operator()}`;
  const audit = (d: StaffDependencies, actor: string, action: string, username: string, details?: Record<string, unknown>) =>
    d.auditLog.append({ actor, action, subject: `staff:${username}`, details }, new Date());
  /** Adds and removes groups until the member's are `roles`; answers the roles they had. */
  const reachRoles = async (identity: StaffIdentity, username: string, roles: StaffRole[]): Promise<string[]> => {
    const had = inRoleOrder(await told(username, identity.groupsOf(username)));
    for (const role of roles.filter((role) => !had.includes(role))) await identity.addToGroup(username, role);
    for (const group of had.filter((group) => !(roles as string[]).includes(group))) await identity.removeFromGroup(username, group);
    return had;
  };
  const endSessions = async (d: StaffDependencies, username: string) => (d.revokeStaffSessions ? { sessionsEnded: await d.revokeStaffSessions(username) } : {});

  staff
    .command('add <email>')
    .description(
      'makes a member of the staff with these roles and shows their temporary password once, on the terminal: at their first sign-in they choose their own and enrol their authenticator app; run again for an add cut short, it finishes it with a new temporary password',
    )
    .requiredOption('--roles <roles>', `comma-separated: ${STAFF_ROLES.join(', ')}`)
    .action(
      withStaff(async (identity, d, email, options) => {
        const username = usernameOf(email);
        const roles = rolesOf((options as unknown as { roles: string }).roles);
        const actor = actorOf();
        const show = terminalFor('add', terminal);
        const existing = await identity.getUser(username);
        const password = temporaryPassword();
        if (existing) {
          // Made but never recorded as added (an add cut short) and never signed in: finished with a new password, by
          // the one add that takes the addition (another add of the same member at this moment is refused).
          const added = (await d.auditLog.listBySubject(`staff:${username}`)).some((entry) => entry.action === 'staff.added');
          if (added || existing.status !== 'FORCE_CHANGE_PASSWORD' || !(await d.additions.claim(username, new Date()))) throw ALREADY(username);
          await identity.setPassword(username, password, false);
        } else {
          await told(username, identity.createUser(username, undefined, { email: username, email_verified: 'true' }, { temporaryPassword: password }));
          // Another add that found the member just made may have taken the addition, and given its own password.
          if (!(await d.additions.claim(username, new Date()))) throw ALREADY(username);
        }
        await reachRoles(identity, username, roles);
        await audit(d, actor, 'staff.added', username, { roles, ...(existing && { finished: true }) });
        out(`Staff member ${username} added with the roles ${roles.join(', ')}.`);
        show(`Their temporary password, shown this once and kept nowhere: ${password}`);
        show(`Give it to them in person. They sign in with it ${VALIDITY} and choose their own, then enrol their authenticator app; until then anyone with this password could.`);
      }),
    );
  staff
    .command('reset <email>')
    .description(
      "gives a member a new temporary password, shown once on the terminal, and ends their sessions: at their next sign-in they choose their own; --authenticator also forgets their authenticator app (a lost phone), and they enrol a new one",
    )
    .option('--authenticator', 'forget their authenticator app too')
    .action(
      withStaff(async (identity, d, email, options) => {
        const username = usernameOf(email);
        const forgetApp = (options as unknown as { authenticator?: boolean }).authenticator === true;
        const actor = actorOf();
        const show = terminalFor('reset', terminal);
        const user = await identity.getUser(username);
        if (!user) throw new StaffError(`No staff member ${username}`);
        const password = temporaryPassword();
        // The password first: cut short after it, nobody knows the new one, and the old one enrols no app.
        await told(username, identity.setPassword(username, password, false));
        const appForgotten = forgetApp && user.mfa.includes('SOFTWARE_TOKEN_MFA');
        if (appForgotten) await identity.deleteSoftwareToken(username);
        await identity.globalSignOut(username);
        const ended = await endSessions(d, username);
        await audit(d, actor, 'staff.password_reset', username, { authenticatorForgotten: appForgotten, ...ended });
        const app = forgetApp ? (appForgotten ? ', their authenticator app forgotten' : ' (they had no authenticator app enrolled)') : '';
        out(`Staff member ${username} has a new temporary password${app}${ended.sessionsEnded ? `; ${ended.sessionsEnded} session(s) ended` : ''}.`);
        if (!user.enabled) out(`${username} is disabled: staff enable lets them sign in.`);
        show(`Their temporary password, shown this once and kept nowhere: ${password}`);
        show(
          forgetApp
            ? `Give it to them in person. They sign in with it ${VALIDITY}, choose their own and enrol their authenticator app again; until then anyone with this password could.`
            : `Give it to them in person. They sign in with it ${VALIDITY} and choose their own; their authenticator app's code is asked for as always.`,
        );
      }),
    );
  staff
    .command('unlock <email>')
    .description(
      'ends a lockout after too many wrong passwords or codes, on the embedded identity service; Amazon Cognito ends its own by itself and has no call for it',
    )
    .action(
      withStaff(async (identity, d, email) => {
        const username = usernameOf(email);
        const actor = actorOf();
        if (!d.endStaffLockout) {
          throw new StaffError(
            `Amazon Cognito has no call that ends a lockout: each lock ends by itself within about 15 minutes (sooner after fewer failures), and 15 minutes without an attempt by ${username} start the count afresh. A forgotten password or a lost authenticator app: staff reset (docs/back-office.md)`,
          );
        }
        if (!(await identity.getUser(username))) throw new StaffError(`No staff member ${username}`);
        const ended = await d.endStaffLockout(username);
        if (!ended) {
          out(`Staff member ${username} is not locked out.`);
          return;
        }
        await audit(d, actor, 'staff.unlocked', username, ended);
        out(
          ended.locked
            ? `Staff member ${username} is no longer locked out.`
            : `Staff member ${username} was not locked out; ${ended.failures} failed attempt(s) forgotten.`,
        );
      }),
    );
  staff
    .command('disable <email>')
    .description('stops a member signing in: their tokens can no longer be renewed, and their back-office sessions end')
    .action(
      withStaff(async (identity, d, email) => {
        const username = usernameOf(email);
        const actor = actorOf();
        await told(username, identity.disableUser(username));
        await identity.globalSignOut(username);
        const ended = await endSessions(d, username);
        await audit(d, actor, 'staff.disabled', username, ended);
        out(`Staff member ${username} disabled${ended.sessionsEnded ? `; ${ended.sessionsEnded} session(s) ended` : ''}.`);
      }),
    );
  staff
    .command('enable <email>')
    .description('lets a disabled member sign in again, with their password and authenticator app')
    .action(
      withStaff(async (identity, d, email) => {
        const username = usernameOf(email);
        const actor = actorOf();
        await told(username, identity.enableUser(username));
        await audit(d, actor, 'staff.enabled', username);
        out(`Staff member ${username} enabled.`);
      }),
    );
  staff
    .command('roles <email>')
    .description("replaces a member's roles; their back-office sessions end, as the roles are read at sign-in")
    .requiredOption('--set <roles>', `comma-separated: ${STAFF_ROLES.join(', ')}`)
    .action(
      withStaff(async (identity, d, email, options) => {
        const username = usernameOf(email);
        const roles = rolesOf((options as unknown as { set: string }).set);
        const actor = actorOf();
        const had = await reachRoles(identity, username, roles);
        if (had.length === roles.length && had.every((group) => (roles as string[]).includes(group))) {
          out(`Staff member ${username} has the roles ${roles.join(', ')} already.`);
          return;
        }
        const ended = await endSessions(d, username);
        await audit(d, actor, 'staff.roles_changed', username, { from: had, to: roles, ...ended });
        out(`Staff member ${username} now has the roles ${roles.join(', ')} (had ${had.join(', ') || 'none'}).`);
      }),
    );
  staff
    .command('show <email>')
    .description('a member: status, enabled, roles, and whether an authenticator app is enrolled')
    .action(
      withStaff(async (identity, _d, email) => {
        const username = usernameOf(email);
        const user = await identity.getUser(username);
        if (!user) throw new StaffError(`No staff member ${username}`);
        const roles = inRoleOrder(await identity.groupsOf(username));
        out(
          JSON.stringify(
            { username: user.username, status: user.status, enabled: user.enabled, roles, authenticatorApp: user.mfa.includes('SOFTWARE_TOKEN_MFA'), createdAt: user.createdAt?.toISOString() },
            null,
            2,
          ),
        );
      }),
    );
  return staff;
}
