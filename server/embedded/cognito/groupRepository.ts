// Group membership: which of its pool's groups a user belongs to. The groups themselves are the pool's settings.
import type { Kysely } from 'kysely';
import { toDbTime } from './dbValues';
import type { IdentityTables } from './tables';

export function createGroupRepository(db: Kysely<IdentityTables>) {
  return {
    async add(userSub: string, groupName: string, now: number): Promise<void> {
      await db
        .insertInto('cognito_group_members')
        .values({ user_sub: userSub, group_name: groupName, created_at: toDbTime(now) })
        .onConflict((conflict) => conflict.columns(['user_sub', 'group_name']).doNothing())
        .execute();
    },

    async remove(userSub: string, groupName: string): Promise<void> {
      await db.deleteFrom('cognito_group_members').where('user_sub', '=', userSub).where('group_name', '=', groupName).execute();
    },

    async listOf(userSub: string): Promise<string[]> {
      const rows = await db.selectFrom('cognito_group_members').select('group_name').where('user_sub', '=', userSub).orderBy('group_name').execute();
      return rows.map((row) => row.group_name);
    },
  };
}
