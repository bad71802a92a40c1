// The pool's lockout seen from its host: Cognito has no call that ends one, so the admin program ends a staff
// member's here, on the database the pool keeps it in (`npm run admin -- staff unlock`, docs/back-office.md).
import type { Kysely } from 'kysely';
import { createIdentityRepository } from './repository';
import type { IdentityTables } from './tables';

/**
 * Ends the lockout of `username` in the pool `poolId` (an additional pool, as `additionalPools` names it; the main
 * pool's is `main: true`) and forgets its failed attempts. What there was: the attempts counted since the last lock
 * and whether it was locked at `now`; undefined when there was nothing.
 */
export function endSignInLockout(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any application Database type is accepted, as the plugin's
  db: Kysely<any>,
  pool: { poolId: string; main?: boolean },
  username: string,
  now: number,
): Promise<{ failures: number; locked: boolean } | undefined> {
  const repository = createIdentityRepository(db.withTables<IdentityTables>() as unknown as Kysely<IdentityTables>, pool.main ? '' : pool.poolId);
  return repository.failures.end(username, now);
}
