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
  'createUser' | 'setPassword' | 'getUser' | 'disableUser' | 'enableUser' | 'globalSignOut' | 'addToGroup' | 'removeFromGroup' | 'groupsOf'
>;

export interface StaffDependencies {
  /** The staff pool's identity service; absent when the configuration has no staff pool (no back office). */
  staffIdentity?: StaffIdentity;
  auditLog: Pick<AuditLogRepository, 'append'>;
  /**
   * Ends the member's back-office sessions and answers how many there were; called, when given, after a disable
   * and after a change of roles (the roles are read at sign-in).
   */
  revokeStaffSessions?: (username: string) => Promise<number>;
}

export interface StaffOutput {
  out: (line: string) => void;
  /**
   * Where the temporary password is shown: the operator's terminal. Absent when the output is not one (a pipe, a
   * file, a one-off task's log): `add` then refuses, as the password must not be kept anywhere.
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

/** The identity service's refusals in the operator's words; anything else (network, credentials) as it is. */
async function told<T>(username: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof IdentityError && error.code === 'USER_NOT_FOUND') throw new StaffError(`No staff member ${username}`);
    throw error;
  }
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
    const had = await told(username, identity.groupsOf(username));
    for (const role of roles.filter((role) => !had.includes(role))) await identity.addToGroup(username, role);
    for (const group of had.filter((group) => !(roles as string[]).includes(group))) await identity.removeFromGroup(username, group);
    return had;
  };
  const endSessions = async (d: StaffDependencies, username: string) => (d.revokeStaffSessions ? { sessionsEnded: await d.revokeStaffSessions(username) } : {});

  staff
    .command('add <email>')
    .description(
      'makes a member of the staff with these roles and shows their generated password once, on the terminal: they sign in at once and enrol their authenticator app; run again for one left without a password, it finishes an interrupted add with a new one',
    )
    .requiredOption('--roles <roles>', `comma-separated: ${STAFF_ROLES.join(', ')}`)
    .action(
      withStaff(async (identity, d, email, options) => {
        const username = usernameOf(email);
        const roles = rolesOf((options as unknown as { roles: string }).roles);
        const actor = actorOf();
        if (!terminal) throw new StaffError('staff add shows a password: run it on a terminal, whose output no log keeps (docs/back-office.md)');
        const existing = await identity.getUser(username);
        // Made but never signed in (an add cut short): finished here with a new password; anyone else is refused.
        if (existing && existing.status !== 'FORCE_CHANGE_PASSWORD') throw new StaffError(`${username} is a staff member already: staff show, staff roles`);
        if (!existing) await identity.createUser(username, undefined, { email: username, email_verified: 'true' });
        const password = temporaryPassword();
        // Permanent: the embedded pool has no NEW_PASSWORD_REQUIRED challenge (docs/back-office.md).
        await identity.setPassword(username, password, true);
        await reachRoles(identity, username, roles);
        await audit(d, actor, 'staff.added', username, { roles, ...(existing && { finished: true }) });
        out(`Staff member ${username} added with the roles ${roles.join(', ')}.`);
        terminal(`Their password, shown this once and kept nowhere: ${password}`);
        terminal('Give it to them in person. They must sign in at once: the first sign-in enrols their authenticator app, and until then anyone with the password could.');
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
        const roles = await identity.groupsOf(username);
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
