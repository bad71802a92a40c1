// Group membership by the admin calls; a pool's groups are declared with it (docs/identity.md, "Staff pool").
import type { PoolContext } from './context';
import { existingUser } from './adminOps';
import { errors } from './errors';
import { requireString, type JsonObject } from './input';
import { groupsOf } from './poolUsers';

function groupOf(context: PoolContext, body: JsonObject): string {
  const groupName = requireString(body, 'GroupName', { max: 128, pattern: /^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u });
  if (!context.settings.groups.includes(groupName)) throw errors.groupNotFound();
  return groupName;
}

export async function adminAddUserToGroup(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  await context.repository.groups.add(user.sub, groupOf(context, body), context.now());
  return {};
}

export async function adminRemoveUserFromGroup(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  await context.repository.groups.remove(user.sub, groupOf(context, body));
  return {};
}

/** All of them in one page: a pool has a handful of groups. */
export async function adminListGroupsForUser(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  const groups = (await groupsOf(context, user.sub)) ?? [];
  return { Groups: groups.map((GroupName) => ({ GroupName, UserPoolId: context.settings.poolId })) };
}
