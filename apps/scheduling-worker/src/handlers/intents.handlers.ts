import { MessageTypeNames, type MessageType, type MessageTypes } from '@platform/contracts';
import type { EventTypeView, InviteLinkView, MembershipView, ScheduleView, TeamView } from '@platform/scheduling';
import type { Msg } from './common.js';
import type { HandlerDeps } from './deps.js';
import { eventTypeCommand } from './event-types.handlers.js';
import { membershipCommand } from './memberships.handlers.js';
import { scheduleCommand } from './schedules.handlers.js';
import { teamCommand } from './teams.handlers.js';

/**
 * One record per intent is the contract (CreateTeam, UpdateTeam, …); the team, membership, event type and
 * schedule handlers take one request shape per family (an action, its scope and the fields), which both these
 * records and the deprecated family records (action + JSON payload) are read into. A field that is null in a
 * record was not given, and is left out of the fields.
 */

type N = typeof MessageTypeNames;
type Scope = {
  action: string;
  actor_user_id: string | null;
  target_id?: string | null;
  scope_team_id?: number | null;
  scope_org_id?: number | null;
};

/** The fields that were given (null in a record means not given); `cleared` ones are set to null. */
function given(fields: Record<string, unknown>, cleared: readonly string[] = []): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));
  for (const field of cleared) out[field] = null;
  return out;
}

function asFamily<F extends N['TeamCommand'] | N['MembershipCommand'] | N['EventTypeCommand'] | N['ScheduleCommand']>(
  message: Msg<MessageType> & { value: { requested_at: number } },
  type: F,
  scope: Scope & (F extends N['ScheduleCommand'] ? { target_user_id: string } : object),
): Msg<F> {
  const value = {
    target_id: null,
    scope_team_id: null,
    scope_org_id: null,
    ...scope,
    payload: '{}',
    requested_at: message.value.requested_at,
  };
  return { ...message, type, value: value as unknown as MessageTypes[F] };
}

const id = (n: number) => String(n);

export async function createTeam(deps: HandlerDeps, m: Msg<N['CreateTeam']>): Promise<TeamView> {
  const v = m.value;
  const body = given({
    name: v.name,
    slug: v.slug,
    logoUrl: v.logo_url,
    bio: v.bio,
    timeZone: v.time_zone,
    weekStart: v.week_start,
  });
  return (await teamCommand(
    deps,
    asFamily(m, MessageTypeNames.TeamCommand, {
      action: 'create',
      actor_user_id: v.actor_user_id,
      scope_org_id: v.org_id,
    }),
    body,
  )) as TeamView;
}

export async function updateTeam(deps: HandlerDeps, m: Msg<N['UpdateTeam']>): Promise<TeamView> {
  const v = m.value;
  const cleared = v.cleared.flatMap((f) => (f === 'logo_url' ? ['logoUrl'] : f === 'bio' ? ['bio'] : []));
  const body = given(
    { name: v.name, slug: v.slug, logoUrl: v.logo_url, bio: v.bio, timeZone: v.time_zone, weekStart: v.week_start },
    cleared,
  );
  const scope = { action: 'update', actor_user_id: v.actor_user_id, target_id: id(v.team_id), scope_org_id: v.org_id };
  return (await teamCommand(deps, asFamily(m, MessageTypeNames.TeamCommand, scope), body)) as TeamView;
}

export async function deleteTeam(deps: HandlerDeps, m: Msg<N['DeleteTeam']>): Promise<TeamView> {
  const v = m.value;
  const scope = { action: 'delete', actor_user_id: v.actor_user_id, target_id: id(v.team_id), scope_org_id: v.org_id };
  return (await teamCommand(deps, asFamily(m, MessageTypeNames.TeamCommand, scope), {})) as TeamView;
}

export async function createTeamInvite(deps: HandlerDeps, m: Msg<N['CreateTeamInvite']>): Promise<InviteLinkView> {
  const v = m.value;
  const scope = { action: 'invite', actor_user_id: v.actor_user_id, target_id: id(v.team_id), scope_org_id: v.org_id };
  return (await teamCommand(deps, asFamily(m, MessageTypeNames.TeamCommand, scope), {})) as InviteLinkView;
}

/** The scope of a team's membership or event type command (a personal event type has no team). */
const teamScope = (
  action: string,
  v: { actor_user_id: string; team_id: number | null; org_id: number | null },
  target: number | null = null,
) => ({
  action,
  actor_user_id: v.actor_user_id,
  target_id: target === null ? null : id(target),
  scope_team_id: v.team_id,
  scope_org_id: v.org_id,
});

export async function addTeamMember(deps: HandlerDeps, m: Msg<N['AddTeamMember']>): Promise<MembershipView> {
  const v = m.value;
  return membershipCommand(
    deps,
    asFamily(m, MessageTypeNames.MembershipCommand, teamScope('create', v)),
    given({ userId: v.user_id, role: v.role, accepted: v.accepted }),
  );
}

export async function updateTeamMembership(
  deps: HandlerDeps,
  m: Msg<N['UpdateTeamMembership']>,
): Promise<MembershipView> {
  const v = m.value;
  return membershipCommand(
    deps,
    asFamily(m, MessageTypeNames.MembershipCommand, teamScope('update', v, v.membership_id)),
    given({ role: v.role, accepted: v.accepted }),
  );
}

export async function removeTeamMember(deps: HandlerDeps, m: Msg<N['RemoveTeamMember']>): Promise<MembershipView> {
  const v = m.value;
  return membershipCommand(
    deps,
    asFamily(m, MessageTypeNames.MembershipCommand, teamScope('delete', v, v.membership_id)),
    {},
  );
}

export async function acceptTeamInvite(deps: HandlerDeps, m: Msg<N['AcceptTeamInvite']>): Promise<MembershipView> {
  const v = m.value;
  return membershipCommand(
    deps,
    asFamily(m, MessageTypeNames.MembershipCommand, { action: 'accept_invite', actor_user_id: v.actor_user_id }),
    { token: v.token },
  );
}

const eventTypeFields = (v: {
  slug: string | null;
  description: string | null;
  scheduling_type: string | null;
  host_user_ids: string[] | null;
}) => ({
  slug: v.slug,
  description: v.description,
  schedulingType: v.scheduling_type,
  hosts: v.host_user_ids?.map((userId) => ({ userId })) ?? null,
});

export async function createEventType(deps: HandlerDeps, m: Msg<N['CreateEventType']>): Promise<EventTypeView> {
  const v = m.value;
  const body = given({ title: v.title, lengthInMinutes: v.length_in_minutes, ...eventTypeFields(v) });
  return (await eventTypeCommand(
    deps,
    asFamily(m, MessageTypeNames.EventTypeCommand, teamScope('create', v)),
    body,
  )) as EventTypeView;
}

export async function updateEventType(deps: HandlerDeps, m: Msg<N['UpdateEventType']>): Promise<EventTypeView> {
  const v = m.value;
  const body = given({ title: v.title, lengthInMinutes: v.length_in_minutes, ...eventTypeFields(v) });
  return (await eventTypeCommand(
    deps,
    asFamily(m, MessageTypeNames.EventTypeCommand, teamScope('update', v, v.event_type_id)),
    body,
  )) as EventTypeView;
}

export async function deleteEventType(deps: HandlerDeps, m: Msg<N['DeleteEventType']>): Promise<EventTypeView> {
  const v = m.value;
  return (await eventTypeCommand(
    deps,
    asFamily(m, MessageTypeNames.EventTypeCommand, teamScope('delete', v, v.event_type_id)),
    {},
  )) as EventTypeView;
}

export async function requestPhoneCall(deps: HandlerDeps, m: Msg<N['RequestPhoneCall']>): Promise<{ callId: string }> {
  const v = m.value;
  const body = given({
    ...v.details,
    yourPhoneNumber: v.your_phone_number,
    numberToCall: v.number_to_call,
    templateType: v.template_type,
  });
  return (await eventTypeCommand(
    deps,
    asFamily(m, MessageTypeNames.EventTypeCommand, teamScope('phone_call', v, v.event_type_id)),
    body,
  )) as { callId: string };
}

type Ranges = Array<{ days: string[]; start_time: string; end_time: string }> | null;
type Overrides = Array<{ date: string; start_time: string; end_time: string }> | null;
const scheduleFields = (v: {
  name: string | null;
  time_zone: string | null;
  availability: Ranges;
  overrides: Overrides;
  is_default: boolean | null;
}) =>
  given({
    name: v.name,
    timeZone: v.time_zone,
    availability: v.availability?.map((r) => ({ days: r.days, startTime: r.start_time, endTime: r.end_time })),
    overrides: v.overrides?.map((o) => ({ date: o.date, startTime: o.start_time, endTime: o.end_time })),
    isDefault: v.is_default,
  });
const scheduleScope = (
  action: string,
  v: { actor_user_id: string; user_id: string; org_id: number | null },
  target: number | null = null,
) => ({
  action,
  actor_user_id: v.actor_user_id,
  target_id: target === null ? null : id(target),
  target_user_id: v.user_id,
  scope_org_id: v.org_id,
});

export async function createSchedule(deps: HandlerDeps, m: Msg<N['CreateSchedule']>): Promise<ScheduleView> {
  return scheduleCommand(
    deps,
    asFamily(m, MessageTypeNames.ScheduleCommand, scheduleScope('create', m.value)),
    scheduleFields(m.value),
  );
}

export async function updateSchedule(deps: HandlerDeps, m: Msg<N['UpdateSchedule']>): Promise<ScheduleView> {
  return scheduleCommand(
    deps,
    asFamily(m, MessageTypeNames.ScheduleCommand, scheduleScope('update', m.value, m.value.schedule_id)),
    scheduleFields(m.value),
  );
}

export async function deleteSchedule(deps: HandlerDeps, m: Msg<N['DeleteSchedule']>): Promise<ScheduleView> {
  return scheduleCommand(
    deps,
    asFamily(m, MessageTypeNames.ScheduleCommand, scheduleScope('delete', m.value, m.value.schedule_id)),
    {},
  );
}
