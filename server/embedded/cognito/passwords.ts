// The pool's password policy, where an administrator sets a password and where a user chooses one.
import type { PasswordPolicy, PoolUser } from './context';
import { errors } from './errors';

const DAY_MS = 86_400_000;

export function checkPasswordPolicy(policy: PasswordPolicy, password: string): void {
  const refuse = (reason: string) => errors.invalidPassword(`Password does not conform to policy: ${reason}`);
  if (password.length < policy.minimumLength) throw refuse('Password not long enough');
  if (policy.requireLowercase && !/[a-z]/.test(password)) throw refuse('Password must have lowercase characters');
  if (policy.requireUppercase && !/[A-Z]/.test(password)) throw refuse('Password must have uppercase characters');
  if (policy.requireNumbers && !/[0-9]/.test(password)) throw refuse('Password must have numeric characters');
  if (policy.requireSymbols && !/[^A-Za-z0-9]/.test(password)) throw refuse('Password must have symbol characters');
}

/** A temporary password set more than the policy's TemporaryPasswordValidityDays ago: only an administrator renews it. */
export function temporaryPasswordExpired(policy: PasswordPolicy, user: PoolUser, now: number): boolean {
  if (user.status !== 'FORCE_CHANGE_PASSWORD' || user.passwordSetAt === null) return false;
  return now >= user.passwordSetAt + policy.temporaryPasswordValidityDays * DAY_MS;
}
