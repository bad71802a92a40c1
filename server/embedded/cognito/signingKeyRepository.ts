// The token issuer's signing keys, shared by every pool of the service.
import type { Kysely } from 'kysely';
import { fromDbTime, toDbTime } from './dbValues';
import type { IdentityTables } from './tables';
import type { SigningKeyRecord, SigningKeyStore } from './tokens';

export function createSigningKeyStore(db: Kysely<IdentityTables>): SigningKeyStore {
  return {
    async listKeys(): Promise<SigningKeyRecord[]> {
      const rows = await db.selectFrom('cognito_signing_keys').selectAll().execute();
      return rows.map((row) => ({
        kid: row.kid,
        publicJwk: JSON.parse(row.public_jwk),
        sealedPrivateKey: row.sealed_private_key,
        createdAt: fromDbTime(row.created_at),
        retiredAt: row.retired_at === null ? null : fromDbTime(row.retired_at),
      }));
    },
    async addKey(key, replaces) {
      // `replaces` is unique: of two processes making a successor to one key, the second inserts nothing.
      const result = await db
        .insertInto('cognito_signing_keys')
        .values({
          kid: key.kid,
          public_jwk: JSON.stringify(key.publicJwk),
          sealed_private_key: key.sealedPrivateKey,
          created_at: toDbTime(key.createdAt),
          retired_at: key.retiredAt === null ? null : toDbTime(key.retiredAt),
          replaces,
        })
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async retireKeysExcept(kid, at) {
      await db
        .updateTable('cognito_signing_keys')
        .set({ retired_at: toDbTime(at) })
        .where('kid', '!=', kid)
        .where('retired_at', 'is', null)
        .execute();
    },
    async deleteKeysRetiredBefore(at) {
      await db.deleteFrom('cognito_signing_keys').where('retired_at', 'is not', null).where('retired_at', '<', toDbTime(at)).execute();
    },
  };
}
