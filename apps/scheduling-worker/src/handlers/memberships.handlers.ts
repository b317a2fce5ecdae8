import { createHash } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import {
  assertManagesTeam,
  assertMayChangeMembership,
  input,
  insertMembership,
  membershipChanged,
  presentMembership,
  type MembershipDoc,
  type Role,
  type MembershipView,
} from '@platform/scheduling';
import { actorReach, change, createOnce, payloadOf, userLookup, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

export type MembershipMsg = Msg<(typeof MessageTypeNames)['MembershipCommand']>;

/** A team keeps at least one owner: the last one can be neither demoted nor removed. */
async function assertNotLastOwner(deps: HandlerDeps, m: MembershipDoc, nextRole: Role | null) {
  if (m.role !== 'OWNER' || nextRole === 'OWNER') return;
  const owners = (await deps.store.membershipsOfTeam(m.team_id)).filter((x) => x.role === 'OWNER' && x.accepted);
  if (owners.length <= 1)
    throw new ConflictError('last_owner', 'A team needs an owner: make another member owner first.');
}

export async function membershipCommand(
  deps: HandlerDeps,
  message: MembershipMsg,
  body: Record<string, unknown> = payloadOf(message),
): Promise<MembershipView | (MembershipView & { teamName: string })> {
  const v = message.value;
  const reach = await actorReach(deps, v.actor_user_id);
  if (v.action === 'accept_invite') return acceptInvite(deps, message, input.requiredString(body, 'token', 200));
  const teamId = input.positiveId(v.scope_team_id, 'teamId');
  const team = assertManagesTeam(reach, await deps.store.team(teamId), v.scope_org_id ?? undefined);
  switch (v.action) {
    case 'create': {
      const userId = input.requiredString(body, 'userId', 100);
      if (!(await deps.users.get(userId))) throw new NotFoundError('user_not_found', `User ${userId} not found.`);
      const role = input.optionalRole(body) ?? 'MEMBER';
      assertMayChangeMembership(reach, team, { currentRole: null, nextRole: role });
      const accepted = input.optionalBoolean(body, 'accepted') ?? false;
      const membership = await createOnce(
        () => deps.store.membershipByCommand(message.meta.id),
        async () => {
          if (await deps.store.membershipOf(team.id, userId))
            throw new ConflictError('membership_exists', `User ${userId} is already a member of this team.`);
          const doc = await insertMembership(deps.writer, {
            commandId: message.meta.id,
            teamId: team.id,
            userId,
            role,
            accepted,
            actor: v.actor_user_id,
          });
          deps.touched?.(deps.writer.memberships.source, doc._id);
          return doc;
        },
      );
      return presentMembership(membership, await userLookup(deps, [membership.user_id]));
    }
    case 'update': {
      const m = await deps.store.membership(input.positiveId(v.target_id, 'membershipId'));
      if (!m || m.team_id !== team.id) throw new NotFoundError('not_found', 'Membership not found.');
      const role = input.optionalRole(body);
      const accepted = input.optionalBoolean(body, 'accepted');
      if (role === undefined && accepted === undefined)
        throw new InputError('bad_request', 'Give role or accepted to change.');
      assertMayChangeMembership(reach, team, { currentRole: m.role, nextRole: role ?? null });
      if (role !== undefined) await assertNotLastOwner(deps, m, role);
      const fields = { ...(role !== undefined ? { role } : {}), ...(accepted !== undefined ? { accepted } : {}) };
      const updated = { ...m, ...fields };
      await change(
        deps,
        deps.writer.memberships,
        m._id,
        fields,
        MessageTypeNames.MembershipChanged,
        m._id,
        membershipChanged(updated, 'updated', v.actor_user_id),
      );
      return presentMembership(updated, await userLookup(deps, [m.user_id]));
    }
    case 'delete': {
      const m = await deps.store.membership(input.positiveId(v.target_id, 'membershipId'));
      if (!m || m.team_id !== team.id) throw new NotFoundError('not_found', 'Membership not found.');
      assertMayChangeMembership(reach, team, { currentRole: m.role, nextRole: null });
      await assertNotLastOwner(deps, m, null);
      await change(
        deps,
        deps.writer.memberships,
        m._id,
        { deleted_at: new Date(deps.clock.now()) },
        MessageTypeNames.MembershipChanged,
        m._id,
        membershipChanged(m, 'deleted', v.actor_user_id),
      );
      return presentMembership(m, await userLookup(deps, [m.user_id]));
    }
    default:
      throw new InputError('bad_request', `Unknown membership action ${v.action}.`);
  }
}

/**
 * The logged-in user accepts an invite link (`/teams/invite?token=…` in the web app): a new accepted MEMBER
 * membership, or the acceptance of one an admin had added as not yet accepted. Links stay valid until they
 * expire, for every user who has them.
 */
async function acceptInvite(deps: HandlerDeps, message: MembershipMsg, token: string) {
  const userId = message.value.actor_user_id!;
  const invite = await deps.store.invite(createHash('sha256').update(token).digest('hex'));
  const team = invite && invite.expires_at.getTime() > deps.clock.now() ? await deps.store.team(invite.team_id) : null;
  if (!invite || !team) throw new NotFoundError('invite_not_found', 'The invite link is unknown or has expired.');
  const existing = await deps.store.membershipOf(team.id, userId);
  if (existing?.accepted) return presentMembership(existing, await userLookup(deps, [userId]));
  if (existing) {
    const accepted = { ...existing, accepted: true };
    await change(
      deps,
      deps.writer.memberships,
      existing._id,
      { accepted: true },
      MessageTypeNames.MembershipChanged,
      existing._id,
      membershipChanged(accepted, 'updated', userId),
    );
    return presentMembership(accepted, await userLookup(deps, [userId]));
  }
  const membership = await createOnce(
    () => deps.store.membershipByCommand(message.meta.id),
    async () => {
      const doc = await insertMembership(deps.writer, {
        commandId: message.meta.id,
        teamId: team.id,
        userId,
        role: 'MEMBER',
        accepted: true,
        actor: userId,
      });
      deps.touched?.(deps.writer.memberships.source, doc._id);
      return doc;
    },
  );
  return { ...presentMembership(membership, await userLookup(deps, [userId])), teamName: team.name };
}
