import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export interface StaffSession {
  idHash: string;
  username: string;
  sub: string;
  roles: string[];
  createdAt: string;
  expiresAt: string;
}

/**
 * Staff members' back-office sessions. A session is live until it is revoked, reaches its absolute expiry, or
 * stays unused longer than the idle limit; its roles are those the member had at sign-in.
 */
export function staffSessionRepository(db: Kysely<Database>) {
  return {
    /** False when a session was made from this sign-in already (its token's `jti`): one session per sign-in. */
    async create(session: Omit<StaffSession, 'createdAt' | 'expiresAt'> & { tokenJti: string; expiresAt: Date }, now: Date): Promise<boolean> {
      const inserted = await db
        .insertInto('staff_sessions')
        .values({
          id_hash: session.idHash,
          username: session.username,
          sub: session.sub,
          roles: JSON.stringify(session.roles),
          token_jti: session.tokenJti,
          created_at: toDbTime(now),
          last_seen_at: toDbTime(now),
          expires_at: toDbTime(session.expiresAt),
          revoked_at: null,
        })
        .onConflict((conflict) => conflict.column('token_jti').doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /**
     * The live session, its last use moved to `now` in the same statement: two requests at once both find it,
     * and a session idle past the limit is found by neither.
     */
    async touchLive(idHash: string, idleSeconds: number, now: Date): Promise<StaffSession | undefined> {
      const row = await db
        .updateTable('staff_sessions')
        .set({ last_seen_at: toDbTime(now) })
        .where('id_hash', '=', idHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', toDbTime(now))
        .where('last_seen_at', '>', toDbTime(new Date(now.getTime() - idleSeconds * 1000)))
        .returning(['id_hash', 'username', 'sub', 'roles', 'created_at', 'expires_at'])
        .executeTakeFirst();
      return row && { idHash: row.id_hash, username: row.username, sub: row.sub, roles: JSON.parse(row.roles) as string[], createdAt: row.created_at, expiresAt: row.expires_at };
    },

    async revoke(idHash: string, now: Date): Promise<void> {
      await db.updateTable('staff_sessions').set({ revoked_at: toDbTime(now) }).where('id_hash', '=', idHash).where('revoked_at', 'is', null).execute();
    },

    /** Ends every session of a member (disabled, or their roles changed); answers how many were live. */
    async revokeAllOf(username: string, now: Date): Promise<number> {
      const result = await db
        .updateTable('staff_sessions')
        .set({ revoked_at: toDbTime(now) })
        .where('username', '=', username)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', toDbTime(now))
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type StaffSessionRepository = ReturnType<typeof staffSessionRepository>;
