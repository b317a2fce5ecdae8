import { MessageTypeNames } from '@platform/contracts';
import { input } from '@platform/scheduling';
import { signedIn, type Msg } from '../common.js';
import { createTeam, createTeamInvite, deleteTeam, updateTeam } from '../teams.handlers.js';
import { asIntent, familyRecordHandler, requiredText, text, type Payload } from './family-record.js';

type TeamCommand = (typeof MessageTypeNames)['TeamCommand'];

const teamFields = (payload: Payload) => ({
  slug: text(payload, 'slug'),
  logo_url: text(payload, 'logoUrl'),
  bio: text(payload, 'bio'),
  time_zone: text(payload, 'timeZone'),
  week_start: text(payload, 'weekStart'),
});

/** A logoUrl or bio sent as null is cleared. */
const clearedFields = (payload: Payload) =>
  (['logoUrl', 'bio'] as const)
    .filter((key) => payload[key] === null)
    .map((key) => (key === 'logoUrl' ? 'logo_url' : 'bio'));

const targetTeam = (m: Msg<TeamCommand>) => ({
  actor_user_id: signedIn(m.value.actor_user_id),
  org_id: m.value.scope_org_id,
  team_id: input.positiveId(m.value.target_id, 'teamId'),
  requested_at: m.value.requested_at,
});

export const teamCommand = familyRecordHandler<TeamCommand>('team', {
  create: (deps, m, payload) =>
    createTeam(
      deps,
      asIntent(m, MessageTypeNames.CreateTeam, {
        actor_user_id: signedIn(m.value.actor_user_id),
        org_id: m.value.scope_org_id,
        name: requiredText(payload, 'name'),
        ...teamFields(payload),
        requested_at: m.value.requested_at,
      }),
    ),
  update: (deps, m, payload) =>
    updateTeam(
      deps,
      asIntent(m, MessageTypeNames.UpdateTeam, {
        ...targetTeam(m),
        name: text(payload, 'name'),
        ...teamFields(payload),
        cleared: clearedFields(payload),
      }),
    ),
  delete: (deps, m) => deleteTeam(deps, asIntent(m, MessageTypeNames.DeleteTeam, targetTeam(m))),
  invite: (deps, m) => createTeamInvite(deps, asIntent(m, MessageTypeNames.CreateTeamInvite, targetTeam(m))),
});
