import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

interface LoginSession {
  idHash: string;
  userSub: string;
  username: string;
  lastSeenAt: string;
  expiresAt: string;
}

/**
 * Customer sessions after login. A session is live until it is revoked, reaches its absolute expiry, or
 * stays unused for longer than the idle limit (PSD2: at most 5 minutes).
 */
export function loginSessionRepository(db: Kysely<Database>) {
  return {
    async create(session: { idHash: string; userSub: string; username: string; expiresAt: Date }, now: Date): Promise<void> {
      await db
        .insertInto('login_sessions')
        .values({
          id_hash: session.idHash,
          user_sub: session.userSub,
          username: session.username,
          created_at: toDbTime(now),
          last_seen_at: toDbTime(now),
          expires_at: toDbTime(session.expiresAt),
          revoked_at: null,
        })
        .execute();
    },

    async findLive(idHash: string, idleSeconds: number, now: Date): Promise<LoginSession | undefined> {
      const row = await db
        .selectFrom('login_sessions')
        .select(['id_hash', 'user_sub', 'username', 'last_seen_at', 'expires_at'])
        .where('id_hash', '=', idHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', toDbTime(now))
        .where('last_seen_at', '>', toDbTime(new Date(now.getTime() - idleSeconds * 1000)))
        .executeTakeFirst();
      return row && { idHash: row.id_hash, userSub: row.user_sub, username: row.username, lastSeenAt: row.last_seen_at, expiresAt: row.expires_at };
    },

    async touch(idHash: string, now: Date): Promise<void> {
      await db.updateTable('login_sessions').set({ last_seen_at: toDbTime(now) }).where('id_hash', '=', idHash).execute();
    },

    async revoke(idHash: string, now: Date): Promise<void> {
      await db
        .updateTable('login_sessions')
        .set({ revoked_at: toDbTime(now) })
        .where('id_hash', '=', idHash)
        .where('revoked_at', 'is', null)
        .execute();
    },

    async revokeAllForUser(userSub: string, now: Date): Promise<number> {
      const result = await db
        .updateTable('login_sessions')
        .set({ revoked_at: toDbTime(now) })
        .where('user_sub', '=', userSub)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Housekeeping: removes the sessions that expired, went idle or were revoked at `before` or earlier; answers how many went. */
    async removeEndedBefore(before: Date): Promise<number> {
      const at = toDbTime(before);
      const result = await db
        .deleteFrom('login_sessions')
        .where((where) => where.or([where('expires_at', '<=', at), where('last_seen_at', '<=', at), where('revoked_at', '<=', at)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type LoginSessionRepository = ReturnType<typeof loginSessionRepository>;
