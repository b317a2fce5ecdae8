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
  type MembershipView,
  type Reach,
  type Role,
  type TeamDoc,
} from '@platform/scheduling';
import { actorReach, change, createOnce, recordId, signedIn, userLookup, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

/** A team's membership command is for one of its admins (or an admin of its organization). */
async function managedTeam(
  deps: HandlerDeps,
  v: { actor_user_id: string; org_id: number | null; team_id: number },
): Promise<{ reach: Reach; team: TeamDoc }> {
  const reach = await actorReach(deps, v.actor_user_id);
  const team = assertManagesTeam(
    reach,
    await deps.store.team(input.positiveId(v.team_id, 'teamId')),
    v.org_id ?? undefined,
  );
  return { reach, team };
}

async function membershipOfTeam(deps: HandlerDeps, team: TeamDoc, membershipId: number): Promise<MembershipDoc> {
  const m = await deps.store.membership(recordId(membershipId, 'membershipId'));
  if (!m || m.team_id !== team.id) throw new NotFoundError('not_found', 'Membership not found.');
  return m;
}

/** A team keeps at least one owner: the last one can be neither demoted nor removed. */
async function assertNotLastOwner(deps: HandlerDeps, m: MembershipDoc, nextRole: Role | null) {
  if (m.role !== 'OWNER' || nextRole === 'OWNER') return;
  const owners = (await deps.store.membershipsOfTeam(m.team_id)).filter((x) => x.role === 'OWNER' && x.accepted);
  if (owners.length <= 1)
    throw new ConflictError('last_owner', 'A team needs an owner: make another member owner first.');
}

export async function addTeamMember(deps: HandlerDeps, message: Msg<N['AddTeamMember']>): Promise<MembershipView> {
  const v = message.value;
  const { reach, team } = await managedTeam(deps, v);
  const userId = input.requiredText(v.user_id, 'userId', 100);
  if (!(await deps.users.get(userId))) throw new NotFoundError('user_not_found', `User ${userId} not found.`);
  const role = v.role ?? 'MEMBER';
  assertMayChangeMembership(reach, team, { currentRole: null, nextRole: role });
  const accepted = v.accepted ?? false;
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
      return doc;
    },
  );
  return presentMembership(membership, await userLookup(deps, [membership.user_id]));
}

export async function updateTeamMembership(
  deps: HandlerDeps,
  message: Msg<N['UpdateTeamMembership']>,
): Promise<MembershipView> {
  const v = message.value;
  const { reach, team } = await managedTeam(deps, v);
  const m = await membershipOfTeam(deps, team, v.membership_id);
  const role = v.role ?? undefined;
  const accepted = v.accepted ?? undefined;
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

export async function removeTeamMember(
  deps: HandlerDeps,
  message: Msg<N['RemoveTeamMember']>,
): Promise<MembershipView> {
  const v = message.value;
  const { reach, team } = await managedTeam(deps, v);
  const m = await membershipOfTeam(deps, team, v.membership_id);
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

/**
 * The logged-in user accepts an invite link (`/teams/invite?token=…` in the web app): a new accepted MEMBER
 * membership, or the acceptance of one an admin had added as not yet accepted. Links stay valid until they
 * expire, for every user who has them.
 */
export async function acceptTeamInvite(
  deps: HandlerDeps,
  message: Msg<N['AcceptTeamInvite']>,
): Promise<MembershipView | (MembershipView & { teamName: string })> {
  const userId = signedIn(message.value.actor_user_id);
  const token = input.requiredText(message.value.token, 'token', 200);
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
      return doc;
    },
  );
  return { ...presentMembership(membership, await userLookup(deps, [userId])), teamName: team.name };
}
