// Every query of the embedded pool, in one dialect-neutral Kysely builder (SQLite and PostgreSQL). The sign-in's
// own queries are prepared once (prepareQuery): building and compiling them cost more than running them.
import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/dialect';
import { prepareQuery } from '../../db/prepared';
import { fromDbBoolean, fromDbTime, toDbBoolean, toDbTime } from './dbValues';
import { createGroupRepository } from './groupRepository';
import { createSoftwareTokenRepository } from './softwareTokenRepository';
import type { CognitoUserTable, IdentityTables } from './tables';
import { createSigningKeyStore } from './signingKeyRepository';

/** Expired temporary credentials are kept this long, so that requests signed with them get ExpiredToken. */
const EXPIRED_CREDENTIALS_KEPT_MS = 86_400_000;

export type UserStatus = 'FORCE_CHANGE_PASSWORD' | 'CONFIRMED';

export interface PoolUser {
  sub: string;
  username: string;
  attributes: Record<string, string>;
  salt: string | null;
  verifier: string | null;
  status: UserStatus;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
  /** When the password was set (a temporary one expires); null while there is none. */
  passwordSetAt: number | null;
}

interface RefreshTokenRecord {
  tokenHash: string;
  userSub: string;
  clientId: string;
  originJti: string;
  authTime: number;
  expiresAt: number;
  revoked: boolean;
}

interface CredentialRecord {
  accessKeyId: string;
  sealedSecret: string;
  sessionTokenHash: string;
  identityId: string;
  expiresAt: number;
}

function toUser(row: Omit<CognitoUserTable, 'pool'>): PoolUser {
  return {
    sub: row.sub,
    username: row.username,
    attributes: JSON.parse(row.attributes) as Record<string, string>,
    salt: row.salt,
    verifier: row.verifier,
    status: row.status as UserStatus,
    enabled: fromDbBoolean(row.enabled),
    createdAt: fromDbTime(row.created_at),
    updatedAt: fromDbTime(row.updated_at),
    passwordSetAt: row.password_set_at === null ? null : fromDbTime(row.password_set_at),
  };
}

/** The repository's database, or a transaction of it. */
export type IdentityExecutor = Kysely<IdentityTables>;

/** `pool`: '' for the service's main pool, the pool id for the others; users and their failures are kept per pool. */
export function createIdentityRepository(db: Kysely<IdentityTables>, pool = '') {
  const userByUsername = prepareQuery((username: string) =>
    db.selectFrom('cognito_users').selectAll().where('pool', '=', pool).where('username', '=', username),
  );
  const userForSignIn = prepareQuery((username: string) =>
    db
      .selectFrom('cognito_users')
      .leftJoin('cognito_sign_in_failures', (join) =>
        join.onRef('cognito_sign_in_failures.pool', '=', 'cognito_users.pool').onRef('cognito_sign_in_failures.username', '=', 'cognito_users.username'),
      )
      .selectAll('cognito_users')
      .select(['cognito_sign_in_failures.failures', 'cognito_sign_in_failures.locked_until'])
      .where('cognito_users.pool', '=', pool)
      .where('cognito_users.username', '=', username),
  );
  // One statement whatever the state: a first failure, one more, the one that locks, or one during a lock.
  // Every SET expression reads the row as it was before this failure.
  const recordFailure = prepareQuery((username: string, at: string, maxFailures: number, lockedUntil: string, firstFailures: number, firstLock: string | null) =>
    db
      .insertInto('cognito_sign_in_failures')
      .values({ pool, username, failures: firstFailures, locked_until: firstLock, updated_at: at })
      .onConflict((conflict) =>
        conflict.columns(['pool', 'username']).doUpdateSet((eb) => {
          const lockedNow = eb('cognito_sign_in_failures.locked_until', '>', at);
          const locksNow = eb(eb('cognito_sign_in_failures.failures', '+', 1), '>=', maxFailures);
          return {
            failures: eb
              .case()
              .when(lockedNow)
              .then(eb.ref('cognito_sign_in_failures.failures'))
              .when(locksNow)
              .then(0)
              .else(eb('cognito_sign_in_failures.failures', '+', 1))
              .end(),
            locked_until: eb
              .case()
              .when(lockedNow)
              .then(eb.ref('cognito_sign_in_failures.locked_until'))
              .when(locksNow)
              .then(lockedUntil)
              .else(eb.ref('cognito_sign_in_failures.locked_until'))
              .end(),
            updated_at: at,
          };
        }),
      )
      .returning('locked_until'),
  );
  // Read within the transaction of a right answer: on PostgreSQL the row is held until it ends, so a failure being
  // counted meanwhile commits first (and its lock is seen) or waits for the answer.
  const postgres = isPostgres(db);
  const lockOfName = prepareQuery((username: string) =>
    db
      .selectFrom('cognito_sign_in_failures')
      .select('locked_until')
      .where('pool', '=', pool)
      .where('username', '=', username)
      .$if(postgres, (query) => query.forUpdate()),
  );
  const clearFailures = prepareQuery((username: string) =>
    db.deleteFrom('cognito_sign_in_failures').where('pool', '=', pool).where('username', '=', username),
  );
  const markAnswered = prepareQuery((id: string, expiresAt: string) =>
    db
      .insertInto('cognito_answered_auth_sessions')
      .values({ id, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column('id').doNothing()),
  );
  const insertRefreshToken = prepareQuery(
    (tokenHash: string, userSub: string, clientId: string, originJti: string, authTime: number, expiresAt: string, revoked: number, createdAt: string) =>
      db.insertInto('cognito_refresh_tokens').values({
        token_hash: tokenHash,
        user_sub: userSub,
        client_id: clientId,
        origin_jti: originJti,
        auth_time: authTime,
        expires_at: expiresAt,
        revoked,
        created_at: createdAt,
      }),
  );

  const users = {
    async findByUsername(username: string): Promise<PoolUser | undefined> {
      const [row] = (await userByUsername(db, username)).rows;
      return row && toUser(row);
    },

    async findBySub(sub: string): Promise<PoolUser | undefined> {
      const row = await db.selectFrom('cognito_users').selectAll().where('pool', '=', pool).where('sub', '=', sub).executeTakeFirst();
      return row && toUser(row);
    },

    /** The user and their lock state in one query (the sign-in's hot path); the same query for unknown names. */
    async findForSignIn(username: string, now: number): Promise<{ user: PoolUser; locked: boolean; hasFailures: boolean } | undefined> {
      const [row] = (await userForSignIn(db, username)).rows;
      if (!row) return undefined;
      const { failures, locked_until: lockedUntil, ...user } = row;
      return {
        user: toUser(user),
        locked: lockedUntil !== null && lockedUntil !== undefined && fromDbTime(lockedUntil) > now,
        hasFailures: failures !== null && failures !== undefined,
      };
    },

    /** False when the username is taken. */
    async insert(user: PoolUser): Promise<boolean> {
      const result = await db
        .insertInto('cognito_users')
        .values({
          pool,
          sub: user.sub,
          username: user.username,
          attributes: JSON.stringify(user.attributes),
          salt: user.salt,
          verifier: user.verifier,
          status: user.status,
          enabled: toDbBoolean(user.enabled),
          created_at: toDbTime(user.createdAt),
          updated_at: toDbTime(user.updatedAt),
          password_set_at: user.passwordSetAt === null ? null : toDbTime(user.passwordSetAt),
        })
        .onConflict((conflict) => conflict.columns(['pool', 'username']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async update(
      username: string,
      patch: Partial<Pick<PoolUser, 'attributes' | 'salt' | 'verifier' | 'status' | 'enabled' | 'passwordSetAt'>>,
      now: number,
    ): Promise<void> {
      await db
        .updateTable('cognito_users')
        .set({
          ...(patch.attributes !== undefined && { attributes: JSON.stringify(patch.attributes) }),
          ...(patch.salt !== undefined && { salt: patch.salt }),
          ...(patch.verifier !== undefined && { verifier: patch.verifier }),
          ...(patch.status !== undefined && { status: patch.status }),
          ...(patch.enabled !== undefined && { enabled: toDbBoolean(patch.enabled) }),
          ...(patch.passwordSetAt !== undefined && { password_set_at: patch.passwordSetAt === null ? null : toDbTime(patch.passwordSetAt) }),
          updated_at: toDbTime(now),
        })
        .where('pool', '=', pool)
        .where('username', '=', username)
        .execute();
    },

    /**
     * The user's own password in place of the temporary one whose verifier is `temporaryVerifier`; false, with
     * nothing changed, when that is no longer their password (an administrator set another meanwhile).
     */
    async replaceTemporaryPassword(username: string, temporaryVerifier: string, chosen: { salt: string; verifier: string }, now: number, executor: IdentityExecutor = db): Promise<boolean> {
      const result = await executor
        .updateTable('cognito_users')
        .set({ salt: chosen.salt, verifier: chosen.verifier, status: 'CONFIRMED', password_set_at: toDbTime(now), updated_at: toDbTime(now) })
        .where('pool', '=', pool)
        .where('username', '=', username)
        .where('status', '=', 'FORCE_CHANGE_PASSWORD')
        .where('verifier', '=', temporaryVerifier)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async delete(user: PoolUser): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('cognito_refresh_tokens').where('user_sub', '=', user.sub).execute();
        await trx.deleteFrom('cognito_group_members').where('user_sub', '=', user.sub).execute();
        await trx.deleteFrom('cognito_software_tokens').where('user_sub', '=', user.sub).execute();
        await trx.deleteFrom('cognito_sign_in_failures').where('pool', '=', pool).where('username', '=', user.username).execute();
        await trx.deleteFrom('cognito_users').where('sub', '=', user.sub).execute();
      });
    },
  };

  // One statement whatever the state, as recordFailure: a first failure, one more, the one that locks, or one during a lock.
  const recordClientFailure = (executor: IdentityExecutor, username: string, client: string, at: string, maxFailures: number, lockedUntil: string) =>
    executor
      .insertInto('cognito_client_failures')
      .values({ pool, username, client, failures: maxFailures <= 1 ? 0 : 1, locked_until: maxFailures <= 1 ? lockedUntil : null, updated_at: at })
      .onConflict((conflict) =>
        conflict.columns(['pool', 'username', 'client']).doUpdateSet((eb) => {
          const lockedNow = eb('cognito_client_failures.locked_until', '>', at);
          const locksNow = eb(eb('cognito_client_failures.failures', '+', 1), '>=', maxFailures);
          return {
            failures: eb.case().when(lockedNow).then(eb.ref('cognito_client_failures.failures')).when(locksNow).then(0).else(eb('cognito_client_failures.failures', '+', 1)).end(),
            locked_until: eb.case().when(lockedNow).then(eb.ref('cognito_client_failures.locked_until')).when(locksNow).then(lockedUntil).else(eb.ref('cognito_client_failures.locked_until')).end(),
            updated_at: at,
          };
        }),
      )
      .execute();

  /** Failures of a client, per name and at every name (`username` ''), in their own table. */
  const clientFailures = {
    /** One more failure of `client` at `username` and at every name, each row in one statement; a row reaching its limit locks. */
    async record(username: string, client: string, now: number, limits: { perName: number; perClient: number; lockSeconds: number }, executor: IdentityExecutor = db): Promise<void> {
      const at = toDbTime(now);
      const lockedUntil = toDbTime(now + limits.lockSeconds * 1000);
      // Always the same order: two failures of one client lock the rows alike.
      await recordClientFailure(executor, '', client, at, limits.perClient, lockedUntil);
      await recordClientFailure(executor, username, client, at, limits.perName, lockedUntil);
    },

    /**
     * How the client stands at `username` at `now`: its lock there or at every name, and whether it failed at the name
     * since its last success. In a transaction on PostgreSQL, the rows read stay held until it ends.
     */
    async standing(username: string, client: string, now: number, executor: IdentityExecutor = db): Promise<{ locked: boolean; hasFailed: boolean }> {
      const rows = await executor
        .selectFrom('cognito_client_failures')
        .select(['username', 'failures', 'locked_until'])
        .where('pool', '=', pool)
        .where('client', '=', client)
        .where('username', 'in', ['', username])
        .$if(isPostgres(db), (query) => query.forUpdate())
        .execute();
      const at = toDbTime(now);
      const here = rows.find((row) => row.username === username);
      return {
        locked: rows.some((row) => row.locked_until !== null && row.locked_until > at),
        hasFailed: here !== undefined && (here.failures > 0 || here.locked_until !== null),
      };
    },

    /** A right answer from the client at the name: its count there starts again (its count at every name does not). */
    async clear(username: string, client: string, executor: IdentityExecutor = db): Promise<void> {
      await executor.deleteFrom('cognito_client_failures').where('pool', '=', pool).where('username', '=', username).where('client', '=', client).execute();
    },

    /** Forgets every client's failures at the name (an administrator's unlock): whether one of them was locked out of it. */
    async endFor(username: string, now: number): Promise<boolean> {
      const rows = await db.deleteFrom('cognito_client_failures').where('pool', '=', pool).where('username', '=', username).returning('locked_until').execute();
      return rows.some((row) => row.locked_until !== null && row.locked_until > toDbTime(now));
    },
  };

  const failures = {
    /**
     * Counts one failure; the maxFailures-th in a row locks the name and starts a new count. During a lock
     * nothing changes but the row is still written, so a locked, a known and an unknown name cost the same.
     */
    async record(username: string, now: number, maxFailures: number, lockSeconds: number, executor: IdentityExecutor = db): Promise<{ locked: boolean }> {
      const at = toDbTime(now);
      const lockedUntil = toDbTime(now + lockSeconds * 1000);
      const locksAtOnce = maxFailures <= 1;
      const [row] = (await recordFailure(executor, username, at, maxFailures, lockedUntil, locksAtOnce ? 0 : 1, locksAtOnce ? lockedUntil : null)).rows;
      return { locked: row.locked_until !== null && row.locked_until > at };
    },

    /** Whether the name is locked at `now`; in a transaction on PostgreSQL, its row stays held until the end. */
    async isLocked(username: string, now: number, executor: IdentityExecutor = db): Promise<boolean> {
      const [row] = (await lockOfName(executor, username)).rows;
      return row?.locked_until !== null && row?.locked_until !== undefined && row.locked_until > toDbTime(now);
    },

    async clear(username: string, executor: IdentityExecutor = db): Promise<void> {
      await clearFailures(executor, username);
    },

    /** Ends the name's lockout and forgets its failures; what there was, if anything. */
    async end(username: string, now: number): Promise<{ failures: number; locked: boolean } | undefined> {
      const clientLocked = await clientFailures.endFor(username, now);
      const row = await db
        .deleteFrom('cognito_sign_in_failures')
        .where('pool', '=', pool)
        .where('username', '=', username)
        .returning(['failures', 'locked_until'])
        .executeTakeFirst();
      // Locked is the name's lock or a client's at the name (the member's own device, after their own mistakes).
      if (!row) return clientLocked ? { failures: 0, locked: true } : undefined;
      return { failures: row.failures, locked: clientLocked || (row.locked_until !== null && row.locked_until > toDbTime(now)) };
    },
  };

  const sessions = {
    /**
     * Marks an InitiateAuth session answered and, in the same transaction, writes what the answer records (a
     * failure, a refresh token...): one database write. False, with nothing written, when it was answered before.
     */
    async answer(id: string, expiresAt: number, record?: (executor: IdentityExecutor) => Promise<void>): Promise<boolean> {
      const answer = async (executor: IdentityExecutor) => Number((await markAnswered(executor, id, toDbTime(expiresAt))).numAffectedRows ?? 0) === 1;
      if (!record) return answer(db);
      return db.transaction().execute(async (trx) => {
        if (!(await answer(trx))) return false;
        await record(trx);
        return true;
      });
    },
  };

  const refreshTokens = {
    async insert(record: RefreshTokenRecord, now: number, executor: IdentityExecutor = db): Promise<void> {
      const { tokenHash, userSub, clientId, originJti, authTime, expiresAt, revoked } = record;
      await insertRefreshToken(executor, tokenHash, userSub, clientId, originJti, authTime, toDbTime(expiresAt), toDbBoolean(revoked), toDbTime(now));
    },

    async find(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
      const row = await db.selectFrom('cognito_refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return (
        row && {
          tokenHash: row.token_hash,
          userSub: row.user_sub,
          clientId: row.client_id,
          originJti: row.origin_jti,
          authTime: Number(row.auth_time),
          expiresAt: fromDbTime(row.expires_at),
          revoked: fromDbBoolean(row.revoked),
        }
      );
    },

    /** Access tokens carry their sign-in's origin_jti: they die with its refresh token. */
    async isOriginActive(originJti: string, now: number): Promise<boolean> {
      const row = await db
        .selectFrom('cognito_refresh_tokens')
        .select('token_hash')
        .where('origin_jti', '=', originJti)
        .where('revoked', '=', toDbBoolean(false))
        .where('expires_at', '>', toDbTime(now))
        .executeTakeFirst();
      return row !== undefined;
    },

    async revoke(tokenHash: string): Promise<void> {
      await db.updateTable('cognito_refresh_tokens').set({ revoked: toDbBoolean(true) }).where('token_hash', '=', tokenHash).execute();
    },

    async revokeAllOf(userSub: string): Promise<void> {
      await db.updateTable('cognito_refresh_tokens').set({ revoked: toDbBoolean(true) }).where('user_sub', '=', userSub).execute();
    },
  };

  const signingKeys = createSigningKeyStore(db);

  const identities = {
    /** The identity of a login, created on first sight; stable afterwards. */
    async findOrCreate(identityPoolId: string, provider: string, sub: string, newIdentityId: string, now: number): Promise<string> {
      await db
        .insertInto('cognito_identities')
        .values({ identity_id: newIdentityId, identity_pool_id: identityPoolId, provider, sub, created_at: toDbTime(now) })
        .onConflict((conflict) => conflict.columns(['identity_pool_id', 'provider', 'sub']).doNothing())
        .execute();
      const identityId = await identities.findBySubject(identityPoolId, provider, sub);
      if (identityId === undefined) throw new Error(`identity of ${provider} subject not found after insert`);
      return identityId;
    },

    /** The identity of a login, if it has one. */
    async findBySubject(identityPoolId: string, provider: string, sub: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('cognito_identities')
        .select('identity_id')
        .where('identity_pool_id', '=', identityPoolId)
        .where('provider', '=', provider)
        .where('sub', '=', sub)
        .executeTakeFirst();
      return row?.identity_id;
    },

    async find(identityId: string): Promise<{ identityPoolId: string; provider: string; sub: string } | undefined> {
      const row = await db.selectFrom('cognito_identities').selectAll().where('identity_id', '=', identityId).executeTakeFirst();
      return row && { identityPoolId: row.identity_pool_id, provider: row.provider, sub: row.sub };
    },

    /** The identities and every credential they were given, in one transaction. */
    async remove(identityIds: string[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('cognito_credentials').where('identity_id', 'in', identityIds).execute();
        await trx.deleteFrom('cognito_identities').where('identity_id', 'in', identityIds).execute();
      });
    },
  };

  const credentials = {
    async insert(record: CredentialRecord, now: number): Promise<void> {
      await db
        .insertInto('cognito_credentials')
        .values({
          access_key_id: record.accessKeyId,
          sealed_secret: record.sealedSecret,
          session_token_hash: record.sessionTokenHash,
          identity_id: record.identityId,
          expires_at: toDbTime(record.expiresAt),
          created_at: toDbTime(now),
        })
        .execute();
    },

    /** Expired credentials too (for a day after their expiry), so a late request is told ExpiredToken. */
    async find(accessKeyId: string): Promise<CredentialRecord | undefined> {
      const row = await db.selectFrom('cognito_credentials').selectAll().where('access_key_id', '=', accessKeyId).executeTakeFirst();
      return (
        row && {
          accessKeyId: row.access_key_id,
          sealedSecret: row.sealed_secret,
          sessionTokenHash: row.session_token_hash,
          identityId: row.identity_id,
          expiresAt: fromDbTime(row.expires_at),
        }
      );
    },
  };

  /** Drops what can no longer be used; called periodically. */
  async function deleteExpired(now: number): Promise<void> {
    const at = toDbTime(now);
    await db.deleteFrom('cognito_answered_auth_sessions').where('expires_at', '<=', at).execute();
    await db.deleteFrom('cognito_refresh_tokens').where('expires_at', '<=', at).execute();
    await db
      .deleteFrom('cognito_credentials')
      .where('expires_at', '<=', toDbTime(now - EXPIRED_CREDENTIALS_KEPT_MS))
      .execute();
    await db
      .deleteFrom('cognito_client_failures')
      .where('updated_at', '<', toDbTime(now - 86_400_000))
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
      .execute();
    // Failures are counted for unknown names too (same work, same timing); their rows go once idle for a day.
    await db
      .deleteFrom('cognito_sign_in_failures')
      .where('updated_at', '<', toDbTime(now - 86_400_000))
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', at)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('cognito_users')
              .select('cognito_users.sub')
              .whereRef('cognito_users.pool', '=', 'cognito_sign_in_failures.pool')
              .whereRef('cognito_users.username', '=', 'cognito_sign_in_failures.username'),
          ),
        ),
      )
      .execute();
  }

  return {
    users,
    failures,
    clientFailures,
    sessions,
    refreshTokens,
    signingKeys,
    identities,
    credentials,
    groups: createGroupRepository(db),
    softwareTokens: createSoftwareTokenRepository(db),
    deleteExpired,
  };
}

export type IdentityRepository = ReturnType<typeof createIdentityRepository>;
