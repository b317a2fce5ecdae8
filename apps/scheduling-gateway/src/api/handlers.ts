import { MessageTypeNames } from '@platform/contracts';
import { NotFoundError } from '@platform/errors';
import {
  assertAdminOfOrganization,
  assertMemberOfOrganization,
  assertSeesTeam,
  assertSeesUserInOrganization,
  canSeeTeam,
  cancelBookingFields,
  createBookingFields,
  isOrganizationAdmin,
  notFound,
  presentBooking,
  presentBookingReferences,
  presentEventType,
  presentMembership,
  presentSchedule,
  presentTeam,
  rescheduleBookingFields,
  type BookingDoc,
  type EventTypeDoc,
  type TeamDoc,
} from '@platform/scheduling';
import { clearedTeamFields, createEventTypeFields, createScheduleFields, eventTypeFields, phoneCallFields, scheduleFields, teamFields } from './commands.js';
import type { ApiContext } from './context.js';
import type { RouteName } from './route-table.js';

type Handler = (ctx: ApiContext) => Promise<unknown>;

/** The team of a [T] path, or of an [OT] path (which must be in that organization). */
async function seenTeam(ctx: ApiContext): Promise<TeamDoc> {
  const orgId = ctx.params['orgId'] === undefined ? undefined : ctx.id('orgId');
  return assertSeesTeam(await ctx.reach(), await ctx.deps.scheduling.team(ctx.id('teamId')), orgId);
}

async function organization(ctx: ApiContext): Promise<TeamDoc> {
  return assertMemberOfOrganization(await ctx.reach(), await ctx.deps.scheduling.team(ctx.id('orgId')));
}

const teamKey = (ctx: ApiContext) => `team:${ctx.params['teamId']}`;
const orgScope = (ctx: ApiContext) => (ctx.params['orgId'] === undefined ? null : ctx.id('orgId'));

async function acceptedMembers(ctx: ApiContext, teamId: number): Promise<string[]> {
  return (await ctx.deps.scheduling.membershipsOfTeam(teamId)).filter((m) => m.accepted).map((m) => m.user_id);
}

async function presentEventTypes(ctx: ApiContext, eventTypes: EventTypeDoc[]) {
  const hostsOf = new Map<number, string[]>();
  for (const e of eventTypes) {
    hostsOf.set(e.id, e.team_id === null ? [e.owner_user_id!] : e.host_user_ids.length > 0 ? e.host_user_ids : await acceptedMembers(ctx, e.team_id));
  }
  const users = await ctx.users([...hostsOf.values()].flat());
  return eventTypes.map((e) => presentEventType(e, hostsOf.get(e.id)!, users));
}

async function eventTypeOfTeam(ctx: ApiContext, team: TeamDoc) {
  const eventType = await ctx.deps.scheduling.eventType(ctx.id('eventTypeId'));
  if (!eventType || eventType.team_id !== team.id) throw notFound('Event type');
  return (await presentEventTypes(ctx, [eventType]))[0];
}

async function membershipsOf(ctx: ApiContext, team: TeamDoc) {
  const memberships = await ctx.deps.scheduling.membershipsOfTeam(team.id);
  const users = await ctx.users(memberships.map((m) => m.user_id));
  return memberships.map((m) => presentMembership(m, users));
}

async function membershipOf(ctx: ApiContext, team: TeamDoc) {
  const membership = await ctx.deps.scheduling.membership(ctx.id('membershipId'));
  if (!membership || membership.team_id !== team.id) throw notFound('Membership');
  return presentMembership(membership, await ctx.users([membership.user_id]));
}

async function bookingsOf(ctx: ApiContext, teamIds: number[]) {
  return presentBookings(ctx, await ctx.deps.scheduling.bookingsOfTeams(teamIds));
}

/** Bookings as the API shows them, `?status=accepted|cancelled` filtering. */
async function presentBookings(ctx: ApiContext, bookings: BookingDoc[]) {
  const status = ctx.query['status'];
  const filtered = typeof status === 'string' ? bookings.filter((b) => b.status === status) : bookings;
  const users = await ctx.users(filtered.flatMap((b) => b.host_user_ids));
  return filtered.map((b) => presentBooking(b, users));
}

async function schedulesOf(ctx: ApiContext, userIds: string[]) {
  return (await ctx.deps.scheduling.schedulesOfUsers(userIds)).map(presentSchedule);
}

/** Team schedules: a member sees the team's members' schedules (as the real service's team views do). */
async function teamSchedules(ctx: ApiContext) {
  const team = await seenTeam(ctx);
  return schedulesOf(ctx, await acceptedMembers(ctx, team.id));
}

async function orgUser(ctx: ApiContext): Promise<{ org: TeamDoc; userId: string }> {
  const org = await organization(ctx);
  const userId = ctx.params['userId']!;
  assertSeesUserInOrganization(await ctx.reach(), org, userId, Boolean(await ctx.deps.scheduling.membershipOf(org.id, userId)));
  return { org, userId };
}

async function orgTeamIds(ctx: ApiContext, org: TeamDoc): Promise<number[]> {
  const reach = await ctx.reach();
  const teams = await ctx.deps.scheduling.teamsOfOrganization(org.id);
  return teams.filter((t) => canSeeTeam(reach, t)).map((t) => t.id);
}

/** The team of a [T] or [OT] write: the caller must see it (whether they may manage it is the worker's to say). */
async function teamScope(ctx: ApiContext) {
  const team = await seenTeam(ctx);
  return { actor_user_id: ctx.userId!, team_id: team.id, org_id: orgScope(ctx) };
}

const N = MessageTypeNames;
const now = () => ({ requested_at: Date.now() });
const param = (ctx: ApiContext, name: string) => ctx.id(name);

const teamEventTypeWrites = {
  create: async (ctx: ApiContext) => ctx.command(N.CreateEventType, teamKey(ctx), { ...(await teamScope(ctx)), ...createEventTypeFields(ctx.body), ...now() }),
  update: async (ctx: ApiContext) =>
    ctx.command(N.UpdateEventType, teamKey(ctx), { ...(await teamScope(ctx)), event_type_id: param(ctx, 'eventTypeId'), ...eventTypeFields(ctx.body), ...now() }),
  delete: async (ctx: ApiContext) => ctx.command(N.DeleteEventType, teamKey(ctx), { ...(await teamScope(ctx)), event_type_id: param(ctx, 'eventTypeId'), ...now() }),
  phoneCall: async (ctx: ApiContext) =>
    ctx.command(N.RequestPhoneCall, teamKey(ctx), { ...(await teamScope(ctx)), event_type_id: param(ctx, 'eventTypeId'), ...phoneCallFields(ctx.body), ...now() }),
};

const membershipWrites = {
  create: async (ctx: ApiContext) => {
    const body = (ctx.body ?? {}) as { userId?: string; role?: 'MEMBER' | 'ADMIN' | 'OWNER'; accepted?: boolean };
    return ctx.command(N.AddTeamMember, teamKey(ctx), { ...(await teamScope(ctx)), user_id: body.userId ?? '', role: body.role ?? null, accepted: body.accepted ?? null, ...now() });
  },
  update: async (ctx: ApiContext) => {
    const body = (ctx.body ?? {}) as { role?: 'MEMBER' | 'ADMIN' | 'OWNER'; accepted?: boolean };
    const scope = await teamScope(ctx);
    return ctx.command(N.UpdateTeamMembership, teamKey(ctx), { ...scope, membership_id: param(ctx, 'membershipId'), role: body.role ?? null, accepted: body.accepted ?? null, ...now() });
  },
  delete: async (ctx: ApiContext) => ctx.command(N.RemoveTeamMember, teamKey(ctx), { ...(await teamScope(ctx)), membership_id: param(ctx, 'membershipId'), ...now() }),
};

const teamWrites = {
  update: async (ctx: ApiContext) =>
    ctx.command(N.UpdateTeam, teamKey(ctx), { ...(await teamScope(ctx)), ...teamFields(ctx.body), cleared: clearedTeamFields(ctx.body), ...now() }),
  delete: async (ctx: ApiContext) => ctx.command(N.DeleteTeam, teamKey(ctx), { ...(await teamScope(ctx)), ...now() }),
  invite: async (ctx: ApiContext) => ctx.command(N.CreateTeamInvite, teamKey(ctx), { ...(await teamScope(ctx)), ...now() }),
};

/** A member's schedules in an organization (an admin's writes, or the member's own). */
const orgScheduleWrites = {
  create: async (ctx: ApiContext) => {
    const { org, userId } = await orgUser(ctx);
    return ctx.command(N.CreateSchedule, `user:${userId}`, { actor_user_id: ctx.userId!, org_id: org.id, user_id: userId, ...createScheduleFields(ctx.body), ...now() });
  },
  update: async (ctx: ApiContext) => {
    const { org, userId } = await orgUser(ctx);
    return ctx.command(N.UpdateSchedule, `user:${userId}`, { actor_user_id: ctx.userId!, org_id: org.id, user_id: userId, schedule_id: param(ctx, 'scheduleId'), ...scheduleFields(ctx.body), ...now() });
  },
  delete: async (ctx: ApiContext) => {
    const { org, userId } = await orgUser(ctx);
    return ctx.command(N.DeleteSchedule, `user:${userId}`, { actor_user_id: ctx.userId!, org_id: org.id, user_id: userId, schedule_id: param(ctx, 'scheduleId'), ...now() });
  },
};

/** A resource of the authorizing user only (another user's is "not found"). */
async function ownEventType(ctx: ApiContext) {
  const eventType = await ctx.deps.scheduling.eventType(ctx.id('eventTypeId'));
  if (!eventType || eventType.owner_user_id !== ctx.userId) throw notFound('Event type');
  return (await presentEventTypes(ctx, [eventType]))[0];
}

const own = (ctx: ApiContext) => ({ actor_user_id: ctx.userId!, org_id: null, user_id: ctx.userId! });
const ownKey = (ctx: ApiContext) => `user:${ctx.userId}`;

const ownEventTypeWrites = {
  create: async (ctx: ApiContext) => ctx.command(N.CreateEventType, ownKey(ctx), { actor_user_id: ctx.userId!, org_id: null, team_id: null, ...createEventTypeFields(ctx.body), ...now() }),
  update: async (ctx: ApiContext) =>
    ctx.command(N.UpdateEventType, ownKey(ctx), { actor_user_id: ctx.userId!, org_id: null, team_id: null, event_type_id: param(ctx, 'eventTypeId'), ...eventTypeFields(ctx.body), ...now() }),
  delete: async (ctx: ApiContext) =>
    ctx.command(N.DeleteEventType, ownKey(ctx), { actor_user_id: ctx.userId!, org_id: null, team_id: null, event_type_id: param(ctx, 'eventTypeId'), ...now() }),
};

const ownScheduleWrites = {
  create: async (ctx: ApiContext) => ctx.command(N.CreateSchedule, ownKey(ctx), { ...own(ctx), ...createScheduleFields(ctx.body), ...now() }),
  update: async (ctx: ApiContext) => ctx.command(N.UpdateSchedule, ownKey(ctx), { ...own(ctx), schedule_id: param(ctx, 'scheduleId'), ...scheduleFields(ctx.body), ...now() }),
  delete: async (ctx: ApiContext) => ctx.command(N.DeleteSchedule, ownKey(ctx), { ...own(ctx), schedule_id: param(ctx, 'scheduleId'), ...now() }),
};

export const HANDLERS: Record<RouteName, Handler> = {
  listEventTypes: async (ctx) => presentEventTypes(ctx, await ctx.deps.scheduling.eventTypesOfUser(ctx.userId!)),
  getEventType: ownEventType,
  createEventType: ownEventTypeWrites.create,
  updateEventType: ownEventTypeWrites.update,
  deleteEventType: ownEventTypeWrites.delete,
  listSchedules: async (ctx) => schedulesOf(ctx, [ctx.userId!]),
  async getSchedule(ctx) {
    const schedule = await ctx.deps.scheduling.schedule(ctx.id('scheduleId'));
    if (!schedule || schedule.user_id !== ctx.userId) throw notFound('Schedule');
    return presentSchedule(schedule);
  },
  createSchedule: ownScheduleWrites.create,
  updateSchedule: ownScheduleWrites.update,
  deleteSchedule: ownScheduleWrites.delete,
  listBookings: async (ctx) => presentBookings(ctx, await ctx.deps.scheduling.bookingsOfHost(ctx.userId!)),
  async getBooking(ctx) {
    const booking = await ctx.deps.scheduling.booking(ctx.params['bookingUid'] ?? '');
    if (!booking || !booking.host_user_ids.includes(ctx.userId!)) throw notFound('Booking');
    return presentBooking(booking, await ctx.users(booking.host_user_ids));
  },

  async listTeams(ctx) {
    const reach = await ctx.reach();
    const teams = await ctx.deps.scheduling.teamsByIds([...reach.roles.keys()]);
    return teams.filter((t) => !t.is_organization).map(presentTeam);
  },
  getTeam: async (ctx) => presentTeam(await seenTeam(ctx)),
  getOrgTeam: async (ctx) => presentTeam(await seenTeam(ctx)),
  createTeam: async (ctx) => ctx.command(N.CreateTeam, ownKey(ctx), { actor_user_id: ctx.userId!, org_id: null, ...teamFields(ctx.body), name: teamFields(ctx.body).name ?? '', ...now() }),
  updateTeam: teamWrites.update,
  deleteTeam: teamWrites.delete,

  listTeamEventTypes: async (ctx) => presentEventTypes(ctx, await ctx.deps.scheduling.eventTypesOfTeams([(await seenTeam(ctx)).id])),
  getTeamEventType: async (ctx) => eventTypeOfTeam(ctx, await seenTeam(ctx)),
  listOrgTeamEventTypes: async (ctx) => presentEventTypes(ctx, await ctx.deps.scheduling.eventTypesOfTeams([(await seenTeam(ctx)).id])),
  getOrgTeamEventType: async (ctx) => eventTypeOfTeam(ctx, await seenTeam(ctx)),
  createTeamEventType: teamEventTypeWrites.create,
  updateTeamEventType: teamEventTypeWrites.update,
  deleteTeamEventType: teamEventTypeWrites.delete,
  teamPhoneCall: teamEventTypeWrites.phoneCall,
  createOrgTeamEventType: teamEventTypeWrites.create,
  updateOrgTeamEventType: teamEventTypeWrites.update,
  deleteOrgTeamEventType: teamEventTypeWrites.delete,
  orgTeamPhoneCall: teamEventTypeWrites.phoneCall,

  listTeamBookings: async (ctx) => bookingsOf(ctx, [(await seenTeam(ctx)).id]),
  listOrgTeamBookings: async (ctx) => bookingsOf(ctx, [(await seenTeam(ctx)).id]),
  async orgTeamBookingReferences(ctx) {
    const team = await seenTeam(ctx);
    const booking = await ctx.deps.scheduling.booking(ctx.params['bookingUid'] ?? '');
    if (!booking || booking.team_id !== team.id) throw new NotFoundError('not_found', 'Booking not found.');
    return presentBookingReferences(booking);
  },

  listTeamSchedules: teamSchedules,
  listOrgTeamSchedules: teamSchedules,
  async listOrgTeamUserSchedules(ctx) {
    const team = await seenTeam(ctx);
    const userId = ctx.params['userId']!;
    if (!(await acceptedMembers(ctx, team.id)).includes(userId)) throw notFound('User');
    return schedulesOf(ctx, [userId]);
  },

  listTeamMemberships: async (ctx) => membershipsOf(ctx, await seenTeam(ctx)),
  getTeamMembership: async (ctx) => membershipOf(ctx, await seenTeam(ctx)),
  listOrgTeamMemberships: async (ctx) => membershipsOf(ctx, await seenTeam(ctx)),
  getOrgTeamMembership: async (ctx) => membershipOf(ctx, await seenTeam(ctx)),
  createTeamMembership: membershipWrites.create,
  updateTeamMembership: membershipWrites.update,
  deleteTeamMembership: membershipWrites.delete,
  teamInvite: teamWrites.invite,
  createOrgTeamMembership: membershipWrites.create,
  updateOrgTeamMembership: membershipWrites.update,
  deleteOrgTeamMembership: membershipWrites.delete,
  orgTeamInvite: teamWrites.invite,

  async listOrgEventTypes(ctx) {
    const org = await organization(ctx);
    return presentEventTypes(ctx, await ctx.deps.scheduling.eventTypesOfTeams(await orgTeamIds(ctx, org)));
  },
  async listOrgBookings(ctx) {
    const org = assertAdminOfOrganization(await ctx.reach(), await ctx.deps.scheduling.team(ctx.id('orgId')));
    return bookingsOf(ctx, (await ctx.deps.scheduling.teamsOfOrganization(org.id)).map((t) => t.id));
  },
  async listOrgSchedules(ctx) {
    const org = assertAdminOfOrganization(await ctx.reach(), await ctx.deps.scheduling.team(ctx.id('orgId')));
    return schedulesOf(ctx, await acceptedMembers(ctx, org.id));
  },
  listOrgUserSchedules: async (ctx) => schedulesOf(ctx, [(await orgUser(ctx)).userId]),
  async getOrgUserSchedule(ctx) {
    const { userId } = await orgUser(ctx);
    const schedule = await ctx.deps.scheduling.schedule(ctx.id('scheduleId'));
    if (!schedule || schedule.user_id !== userId) throw notFound('Schedule');
    return presentSchedule(schedule);
  },
  createOrgUserSchedule: orgScheduleWrites.create,
  updateOrgUserSchedule: orgScheduleWrites.update,
  deleteOrgUserSchedule: orgScheduleWrites.delete,

  async listOrgTeams(ctx) {
    const org = await organization(ctx);
    const reach = await ctx.reach();
    const teams = await ctx.deps.scheduling.teamsOfOrganization(org.id);
    // Admins see every team of the organization; members the ones they belong to.
    return (isOrganizationAdmin(reach, org.id) ? teams : teams.filter((t) => reach.roles.has(t.id))).map(presentTeam);
  },
  async listOrgTeamsOfUser(ctx) {
    const org = await organization(ctx);
    const reach = await ctx.reach();
    return (await ctx.deps.scheduling.teamsOfOrganization(org.id)).filter((t) => reach.roles.has(t.id)).map(presentTeam);
  },
  createOrgTeam: async (ctx) =>
    ctx.command(N.CreateTeam, `org:${ctx.params['orgId']}`, { actor_user_id: ctx.userId!, org_id: (await organization(ctx)).id, ...teamFields(ctx.body), name: teamFields(ctx.body).name ?? '', ...now() }),
  updateOrgTeam: teamWrites.update,
  deleteOrgTeam: teamWrites.delete,

  async createBooking(ctx) {
    ctx.checkBody();
    const fields = createBookingFields(ctx.body);
    return ctx.command(N.CreateBooking, `event-type:${fields.event_type_id}`, { ...fields, requested_at: Date.now() });
  },
  async cancelBooking(ctx) {
    ctx.checkBody();
    const uid = ctx.params['bookingUid'] ?? '';
    return ctx.command(N.CancelBooking, `booking:${uid}`, { ...cancelBookingFields(uid, ctx.body), requested_at: Date.now() });
  },
  async rescheduleBooking(ctx) {
    ctx.checkBody();
    const uid = ctx.params['bookingUid'] ?? '';
    return ctx.command(N.RescheduleBooking, `booking:${uid}`, { ...rescheduleBookingFields(uid, ctx.body), requested_at: Date.now() });
  },
};
