import { MessageTypeNames } from '@platform/contracts';
import { input } from '@platform/scheduling';
import { signedIn, type Msg } from '../common.js';
import { acceptTeamInvite, addTeamMember, removeTeamMember, updateTeamMembership } from '../memberships.handlers.js';
import { asIntent, familyRecordHandler, requiredText } from './family-record.js';

type MembershipCommand = (typeof MessageTypeNames)['MembershipCommand'];

const teamOf = (m: Msg<MembershipCommand>) => ({
  actor_user_id: signedIn(m.value.actor_user_id),
  org_id: m.value.scope_org_id,
  team_id: input.positiveId(m.value.scope_team_id, 'teamId'),
  requested_at: m.value.requested_at,
});

const membershipId = (m: Msg<MembershipCommand>) => input.positiveId(m.value.target_id, 'membershipId');

export const membershipCommand = familyRecordHandler<MembershipCommand>('membership', {
  create: (deps, m, payload) =>
    addTeamMember(
      deps,
      asIntent(m, MessageTypeNames.AddTeamMember, {
        ...teamOf(m),
        user_id: requiredText(payload, 'userId'),
        role: input.optionalRole(payload) ?? null,
        accepted: input.optionalBoolean(payload, 'accepted') ?? null,
      }),
    ),
  update: (deps, m, payload) =>
    updateTeamMembership(
      deps,
      asIntent(m, MessageTypeNames.UpdateTeamMembership, {
        ...teamOf(m),
        membership_id: membershipId(m),
        role: input.optionalRole(payload) ?? null,
        accepted: input.optionalBoolean(payload, 'accepted') ?? null,
      }),
    ),
  delete: (deps, m) =>
    removeTeamMember(
      deps,
      asIntent(m, MessageTypeNames.RemoveTeamMember, { ...teamOf(m), membership_id: membershipId(m) }),
    ),
  accept_invite: (deps, m, payload) =>
    acceptTeamInvite(
      deps,
      asIntent(m, MessageTypeNames.AcceptTeamInvite, {
        actor_user_id: signedIn(m.value.actor_user_id),
        token: requiredText(payload, 'token'),
        requested_at: m.value.requested_at,
      }),
    ),
});
