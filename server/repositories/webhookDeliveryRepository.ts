import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** The identity provider's signed deliveries already taken: each signature is taken once, in one statement. */
export function webhookDeliveryRepository(db: Kysely<Database>) {
  return {
    /** Takes the delivery signed with `signature`, kept until `expiresAt`: false when it was taken already. */
    async take(signature: string, expiresAt: Date): Promise<boolean> {
      const result = await db
        .insertInto('identity_webhook_deliveries')
        .values({ signature_hash: createHash('sha256').update(signature).digest('hex'), expires_at: toDbTime(expiresAt) })
        .onConflict((conflict) => conflict.column('signature_hash').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** Forgets the deliveries whose signing time no longer passes anyway; answers how many. */
    async removeExpired(now: Date): Promise<number> {
      const result = await db.deleteFrom('identity_webhook_deliveries').where('expires_at', '<=', toDbTime(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
