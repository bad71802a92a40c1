// Users' authenticator apps (TOTP). The secrets arrive and leave sealed: this layer never sees them in the clear.
import type { Kysely } from 'kysely';
import { fromDbBoolean, toDbBoolean, toDbTime } from './dbValues';
import type { IdentityExecutor } from './repository';
import type { IdentityTables } from './tables';

export interface SoftwareToken {
  sealedSecret: string | null;
  sealedPendingSecret: string | null;
  lastUsedStep: number | null;
  enabled: boolean;
  preferred: boolean;
}

export function createSoftwareTokenRepository(db: Kysely<IdentityTables>) {
  return {
    async find(userSub: string): Promise<SoftwareToken | undefined> {
      const row = await db.selectFrom('cognito_software_tokens').selectAll().where('user_sub', '=', userSub).executeTakeFirst();
      return (
        row && {
          sealedSecret: row.sealed_secret,
          sealedPendingSecret: row.sealed_pending_secret,
          lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
          enabled: fromDbBoolean(row.enabled),
          preferred: fromDbBoolean(row.preferred),
        }
      );
    },

    /** A new secret waits for its first code; a verified one stays in use until then. */
    async associate(userSub: string, sealedPendingSecret: string, now: number): Promise<void> {
      await db
        .insertInto('cognito_software_tokens')
        .values({
          user_sub: userSub,
          sealed_secret: null,
          sealed_pending_secret: sealedPendingSecret,
          last_used_step: null,
          enabled: toDbBoolean(false),
          preferred: toDbBoolean(false),
          updated_at: toDbTime(now),
        })
        .onConflict((conflict) => conflict.column('user_sub').doUpdateSet({ sealed_pending_secret: sealedPendingSecret, updated_at: toDbTime(now) }))
        .execute();
    },

    /**
     * The pending secret becomes the secret, its code's step the last one used. False when the pending secret is no
     * longer `sealedPendingSecret` (another association or verification came first).
     */
    async verify(userSub: string, sealedPendingSecret: string, step: number, now: number): Promise<boolean> {
      const result = await db
        .updateTable('cognito_software_tokens')
        .set({ sealed_secret: sealedPendingSecret, sealed_pending_secret: null, last_used_step: step, enabled: toDbBoolean(true), updated_at: toDbTime(now) })
        .where('user_sub', '=', userSub)
        .where('sealed_pending_secret', '=', sealedPendingSecret)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Records that a code of `step` was used; false when that step or a later one already was (a replay). */
    async useStep(userSub: string, step: number, now: number, executor: IdentityExecutor = db): Promise<boolean> {
      const result = await executor
        .updateTable('cognito_software_tokens')
        .set({ last_used_step: step, updated_at: toDbTime(now) })
        .where('user_sub', '=', userSub)
        .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async setPreference(userSub: string, preference: { enabled?: boolean; preferred?: boolean }, now: number): Promise<void> {
      await db
        .updateTable('cognito_software_tokens')
        .set({
          ...(preference.enabled !== undefined && { enabled: toDbBoolean(preference.enabled) }),
          ...(preference.preferred !== undefined && { preferred: toDbBoolean(preference.preferred) }),
          updated_at: toDbTime(now),
        })
        .where('user_sub', '=', userSub)
        .execute();
    },

    /** Forgets the user's app, verified or pending: the next one is enrolled from scratch. */
    async delete(userSub: string): Promise<void> {
      await db.deleteFrom('cognito_software_tokens').where('user_sub', '=', userSub).execute();
    },
  };
}
