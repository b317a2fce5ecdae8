import type { MessageTypeNames } from '@platform/contracts';
import { NotFoundError } from '@platform/errors';
import {
  addOrganizationMember,
  createOrganization,
  presentMembership,
  presentTeam,
  type MembershipView,
  type TeamView,
} from '@platform/scheduling';
import { userLookup, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

async function existingUser(deps: HandlerDeps, userId: string): Promise<void> {
  if (!(await deps.users.get(userId))) throw new NotFoundError('user_not_found', `User ${userId} not found.`);
}

/** The operator's `cli orgs create`: the organization and its owner's membership, once per command. */
export async function createOrganizationHandler(
  deps: HandlerDeps,
  message: Msg<(typeof MessageTypeNames)['CreateOrganization']>,
): Promise<TeamView> {
  const v = message.value;
  await existingUser(deps, v.owner_user_id);
  const org = await createOrganization(deps.store, deps.writer, {
    name: v.name,
    ownerUserId: v.owner_user_id,
    commandId: message.meta.id,
    ...(v.slug !== null ? { slug: v.slug } : {}),
    ...(v.time_zone !== null ? { timeZone: v.time_zone } : {}),
  });
  return presentTeam(org);
}

/** The operator's `cli orgs add-member`. */
export async function addOrganizationMemberHandler(
  deps: HandlerDeps,
  message: Msg<(typeof MessageTypeNames)['AddOrganizationMember']>,
): Promise<MembershipView> {
  const v = message.value;
  await existingUser(deps, v.user_id);
  const membership = await addOrganizationMember(deps.store, deps.writer, {
    orgId: v.org_id,
    userId: v.user_id,
    role: v.role,
    commandId: message.meta.id,
  });
  return presentMembership(membership, await userLookup(deps, [membership.user_id]));
}
