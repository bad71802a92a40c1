import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** The recovery sealing key pairs, the private halves stored sealed (sealingKeys.ts seals and opens them). */
export function sealingKeyRepository(db: Kysely<Database>) {
  return {
    async add(key: { keyId: string; publicKey: string; privateKeySealed: string; expiresAt: string }, now: Date): Promise<void> {
      await db
        .insertInto('sealing_keys')
        .values({ key_id: key.keyId, public_key: key.publicKey, private_key_sealed: key.privateKeySealed, created_at: toDbTime(now), expires_at: key.expiresAt })
        .execute();
    },

    /** The newest key still valid after `after`. */
    async newestValidAfter(after: Date): Promise<{ keyId: string; publicKey: string } | undefined> {
      const row = await db
        .selectFrom('sealing_keys')
        .select(['key_id', 'public_key'])
        .where('expires_at', '>', toDbTime(after))
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return row && { keyId: row.key_id, publicKey: row.public_key };
    },

    /** The sealed private half of a key still valid at `now`. */
    async sealedPrivateKey(keyId: string, now: Date): Promise<string | undefined> {
      const row = await db.selectFrom('sealing_keys').select(['private_key_sealed']).where('key_id', '=', keyId).where('expires_at', '>', toDbTime(now)).executeTakeFirst();
      return row?.private_key_sealed;
    },
  };
}

export type SealingKeyRepository = ReturnType<typeof sealingKeyRepository>;
