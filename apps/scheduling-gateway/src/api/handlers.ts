import { MessageTypeNames } from '@platform/contracts';
import {
  cancelBookingFields,
  createBookingFields,
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
  type MembershipDoc,
  type ScheduleDoc,
  type TeamDoc,
} from '@platform/scheduling';
import {
  clearedTeamFields,
  createEventTypeFields,
  createScheduleFields,
  eventTypeFields,
  phoneCallFields,
  scheduleFields,
  teamFields,
} from './commands.js';
import type { ApiContext } from './context.js';
import type { RouteName } from './route-table.js';

type Handler = (ctx: ApiContext) => Promise<unknown>;

/** The team of a [T] path, or of an [OT] path (which must be in that organization), as the caller sees it. */
async function seenTeam(ctx: ApiContext): Promise<TeamDoc> {
  return ctx.reads.team(ctx.id('teamId'), ctx.params['orgId'] === undefined ? undefined : ctx.id('orgId'));
}

const teamKey = (ctx: ApiContext) => `team:${ctx.params['teamId']}`;
const orgScope = (ctx: ApiContext) => (ctx.params['orgId'] === undefined ? null : ctx.id('orgId'));

async function presentEventTypes(ctx: ApiContext, eventTypes: EventTypeDoc[]) {
  const hostsOf = new Map<number, string[]>();
  for (const e of eventTypes) hostsOf.set(e.id, await ctx.reads.hostsOf(e));
  const users = await ctx.users([...hostsOf.values()].flat());
  return eventTypes.map((e) => presentEventType(e, hostsOf.get(e.id)!, users));
}

const presentEventType1 = async (ctx: ApiContext, eventType: EventTypeDoc) =>
  (await presentEventTypes(ctx, [eventType]))[0];

async function presentMemberships(ctx: ApiContext, memberships: MembershipDoc[]) {
  const users = await ctx.users(memberships.map((m) => m.user_id));
  return memberships.map((m) => presentMembership(m, users));
}

/** Bookings as the API shows them, `?status=accepted|cancelled` filtering. */
async function presentBookings(ctx: ApiContext, bookings: BookingDoc[]) {
  const status = ctx.query['status'];
  const filtered = typeof status === 'string' ? bookings.filter((b) => b.status === status) : bookings;
  const users = await ctx.users(filtered.flatMap((b) => b.host_user_ids));
  return filtered.map((b) => presentBooking(b, users));
}

const presentSchedules = (schedules: ScheduleDoc[]) => schedules.map(presentSchedule);

/** Team schedules: a member sees the team's members' schedules (as the real service's team views do). */
async function teamSchedules(ctx: ApiContext) {
  return presentSchedules(await ctx.reads.schedulesOf(await ctx.reads.acceptedMembers(await seenTeam(ctx))));
}

const orgUser = (ctx: ApiContext) => ctx.reads.memberOfOrganization(ctx.id('orgId'), ctx.params['userId']!);

/** The team of a [T] or [OT] write: the caller must see it (whether they may manage it is the worker's to say). */
async function teamScope(ctx: ApiContext) {
  const team = await seenTeam(ctx);
  return { actor_user_id: ctx.userId!, team_id: team.id, org_id: orgScope(ctx) };
}

const N = MessageTypeNames;
const now = () => ({ requested_at: Date.now() });
const param = (ctx: ApiContext, name: string) => ctx.id(name);

const teamEventTypeWrites = {
  create: async (ctx: ApiContext) =>
    ctx.command(N.CreateEventType, teamKey(ctx), {
      ...(await teamScope(ctx)),
      ...createEventTypeFields(ctx.body),
      ...now(),
    }),
  update: async (ctx: ApiContext) =>
    ctx.command(N.UpdateEventType, teamKey(ctx), {
      ...(await teamScope(ctx)),
      event_type_id: param(ctx, 'eventTypeId'),
      ...eventTypeFields(ctx.body),
      ...now(),
    }),
  delete: async (ctx: ApiContext) =>
    ctx.command(N.DeleteEventType, teamKey(ctx), {
      ...(await teamScope(ctx)),
      event_type_id: param(ctx, 'eventTypeId'),
      ...now(),
    }),
  phoneCall: async (ctx: ApiContext) =>
    ctx.command(N.RequestPhoneCall, teamKey(ctx), {
      ...(await teamScope(ctx)),
      event_type_id: param(ctx, 'eventTypeId'),
      ...phoneCallFields(ctx.body),
      ...now(),
    }),
};

const membershipWrites = {
  create: async (ctx: ApiContext) => {
    const scope = await teamScope(ctx);
    const body = (ctx.body ?? {}) as { userId?: string; role?: 'MEMBER' | 'ADMIN' | 'OWNER'; accepted?: boolean };
    return ctx.command(N.AddTeamMember, teamKey(ctx), {
      ...scope,
      user_id: body.userId ?? '',
      role: body.role ?? null,
      accepted: body.accepted ?? null,
      ...now(),
    });
  },
  update: async (ctx: ApiContext) => {
    const scope = await teamScope(ctx);
    const body = (ctx.body ?? {}) as { role?: 'MEMBER' | 'ADMIN' | 'OWNER'; accepted?: boolean };
    return ctx.command(N.UpdateTeamMembership, teamKey(ctx), {
      ...scope,
      membership_id: param(ctx, 'membershipId'),
      role: body.role ?? null,
      accepted: body.accepted ?? null,
      ...now(),
    });
  },
  delete: async (ctx: ApiContext) =>
    ctx.command(N.RemoveTeamMember, teamKey(ctx), {
      ...(await teamScope(ctx)),
      membership_id: param(ctx, 'membershipId'),
      ...now(),
    }),
};

const teamWrites = {
  update: async (ctx: ApiContext) =>
    ctx.command(N.UpdateTeam, teamKey(ctx), {
      ...(await teamScope(ctx)),
      ...teamFields(ctx.body),
      cleared: clearedTeamFields(ctx.body),
      ...now(),
    }),
  delete: async (ctx: ApiContext) => ctx.command(N.DeleteTeam, teamKey(ctx), { ...(await teamScope(ctx)), ...now() }),
  invite: async (ctx: ApiContext) =>
    ctx.command(N.CreateTeamInvite, teamKey(ctx), { ...(await teamScope(ctx)), ...now() }),
};

/** A member's schedules in an organization (an admin's writes, or the member's own). */
const orgScheduleWrites = {
  create: async (ctx: ApiContext) => {
    const { org, userId } = await orgUser(ctx);
    return ctx.command(N.CreateSchedule, `user:${userId}`, {
      actor_user_id: ctx.userId!,
      org_id: org.id,
      user_id: userId,
      ...createScheduleFields(ctx.body),
      ...now(),
    });
  },
  update: async (ctx: ApiContext) => {
    const { org, userId } = await orgUser(ctx);
    return ctx.command(N.UpdateSchedule, `user:${userId}`, {
      actor_user_id: ctx.userId!,
      org_id: org.id,
      user_id: userId,
      schedule_id: param(ctx, 'scheduleId'),
      ...scheduleFields(ctx.body),
      ...now(),
    });
  },
  delete: async (ctx: ApiContext) => {
    const { org, userId } = await orgUser(ctx);
    return ctx.command(N.DeleteSchedule, `user:${userId}`, {
      actor_user_id: ctx.userId!,
      org_id: org.id,
      user_id: userId,
      schedule_id: param(ctx, 'scheduleId'),
      ...now(),
    });
  },
};

const own = (ctx: ApiContext) => ({ actor_user_id: ctx.userId!, org_id: null, user_id: ctx.userId! });
const ownKey = (ctx: ApiContext) => `user:${ctx.userId}`;

const ownEventTypeWrites = {
  create: async (ctx: ApiContext) =>
    ctx.command(N.CreateEventType, ownKey(ctx), {
      actor_user_id: ctx.userId!,
      org_id: null,
      team_id: null,
      ...createEventTypeFields(ctx.body),
      ...now(),
    }),
  async update(ctx: ApiContext) {
    // Whose it is is decided before the body is judged: a stranger gets 404, never a hint about the body.
    await ctx.reads.ownEventType(ctx.id('eventTypeId'));
    return ctx.command(N.UpdateEventType, ownKey(ctx), {
      actor_user_id: ctx.userId!,
      org_id: null,
      team_id: null,
      event_type_id: param(ctx, 'eventTypeId'),
      ...eventTypeFields(ctx.body),
      ...now(),
    });
  },
  delete: async (ctx: ApiContext) =>
    ctx.command(N.DeleteEventType, ownKey(ctx), {
      actor_user_id: ctx.userId!,
      org_id: null,
      team_id: null,
      event_type_id: param(ctx, 'eventTypeId'),
      ...now(),
    }),
};

const ownScheduleWrites = {
  create: async (ctx: ApiContext) =>
    ctx.command(N.CreateSchedule, ownKey(ctx), { ...own(ctx), ...createScheduleFields(ctx.body), ...now() }),
  update: async (ctx: ApiContext) =>
    ctx.command(N.UpdateSchedule, ownKey(ctx), {
      ...own(ctx),
      schedule_id: param(ctx, 'scheduleId'),
      ...scheduleFields(ctx.body),
      ...now(),
    }),
  delete: async (ctx: ApiContext) =>
    ctx.command(N.DeleteSchedule, ownKey(ctx), { ...own(ctx), schedule_id: param(ctx, 'scheduleId'), ...now() }),
};

export const HANDLERS: Record<RouteName, Handler> = {
  listEventTypes: async (ctx) => presentEventTypes(ctx, await ctx.reads.ownEventTypes()),
  getEventType: async (ctx) => presentEventType1(ctx, await ctx.reads.ownEventType(ctx.id('eventTypeId'))),
  createEventType: ownEventTypeWrites.create,
  updateEventType: ownEventTypeWrites.update,
  deleteEventType: ownEventTypeWrites.delete,
  listSchedules: async (ctx) => presentSchedules(await ctx.reads.ownSchedules()),
  getSchedule: async (ctx) => presentSchedule(await ctx.reads.scheduleOf(ctx.userId!, ctx.id('scheduleId'))),
  createSchedule: ownScheduleWrites.create,
  updateSchedule: ownScheduleWrites.update,
  deleteSchedule: ownScheduleWrites.delete,
  listBookings: async (ctx) => presentBookings(ctx, await ctx.reads.hostedBookings()),
  async getBooking(ctx) {
    const booking = await ctx.reads.hostedBooking(ctx.params['bookingUid'] ?? '');
    return presentBooking(booking, await ctx.users(booking.host_user_ids));
  },

  listTeams: async (ctx) => (await ctx.reads.teams()).map(presentTeam),
  getTeam: async (ctx) => presentTeam(await seenTeam(ctx)),
  getOrgTeam: async (ctx) => presentTeam(await seenTeam(ctx)),
  createTeam: async (ctx) =>
    ctx.command(N.CreateTeam, ownKey(ctx), {
      actor_user_id: ctx.userId!,
      org_id: null,
      ...teamFields(ctx.body),
      name: teamFields(ctx.body).name ?? '',
      ...now(),
    }),
  updateTeam: teamWrites.update,
  deleteTeam: teamWrites.delete,

  listTeamEventTypes: async (ctx) => presentEventTypes(ctx, await ctx.reads.eventTypesOfTeams([await seenTeam(ctx)])),
  getTeamEventType: async (ctx) =>
    presentEventType1(ctx, await ctx.reads.eventTypeOf(await seenTeam(ctx), ctx.id('eventTypeId'))),
  listOrgTeamEventTypes: async (ctx) =>
    presentEventTypes(ctx, await ctx.reads.eventTypesOfTeams([await seenTeam(ctx)])),
  getOrgTeamEventType: async (ctx) =>
    presentEventType1(ctx, await ctx.reads.eventTypeOf(await seenTeam(ctx), ctx.id('eventTypeId'))),
  createTeamEventType: teamEventTypeWrites.create,
  updateTeamEventType: teamEventTypeWrites.update,
  deleteTeamEventType: teamEventTypeWrites.delete,
  teamPhoneCall: teamEventTypeWrites.phoneCall,
  createOrgTeamEventType: teamEventTypeWrites.create,
  updateOrgTeamEventType: teamEventTypeWrites.update,
  deleteOrgTeamEventType: teamEventTypeWrites.delete,
  orgTeamPhoneCall: teamEventTypeWrites.phoneCall,

  listTeamBookings: async (ctx) => presentBookings(ctx, await ctx.reads.bookingsOfTeams([await seenTeam(ctx)])),
  listOrgTeamBookings: async (ctx) => presentBookings(ctx, await ctx.reads.bookingsOfTeams([await seenTeam(ctx)])),
  orgTeamBookingReferences: async (ctx) =>
    presentBookingReferences(await ctx.reads.bookingOfTeam(await seenTeam(ctx), ctx.params['bookingUid'] ?? '')),

  listTeamSchedules: teamSchedules,
  listOrgTeamSchedules: teamSchedules,
  async listOrgTeamUserSchedules(ctx) {
    const userId = ctx.params['userId']!;
    if (!(await ctx.reads.acceptedMembers(await seenTeam(ctx))).includes(userId)) throw notFound('User');
    return presentSchedules(await ctx.reads.schedulesOf([userId]));
  },

  listTeamMemberships: async (ctx) => presentMemberships(ctx, await ctx.reads.membershipsOf(await seenTeam(ctx))),
  getTeamMembership: async (ctx) =>
    (await presentMemberships(ctx, [await ctx.reads.membershipOf(await seenTeam(ctx), ctx.id('membershipId'))]))[0],
  listOrgTeamMemberships: async (ctx) => presentMemberships(ctx, await ctx.reads.membershipsOf(await seenTeam(ctx))),
  getOrgTeamMembership: async (ctx) =>
    (await presentMemberships(ctx, [await ctx.reads.membershipOf(await seenTeam(ctx), ctx.id('membershipId'))]))[0],
  createTeamMembership: membershipWrites.create,
  updateTeamMembership: membershipWrites.update,
  deleteTeamMembership: membershipWrites.delete,
  teamInvite: teamWrites.invite,
  createOrgTeamMembership: membershipWrites.create,
  updateOrgTeamMembership: membershipWrites.update,
  deleteOrgTeamMembership: membershipWrites.delete,
  orgTeamInvite: teamWrites.invite,

  async listOrgEventTypes(ctx) {
    const org = await ctx.reads.organization(ctx.id('orgId'));
    return presentEventTypes(ctx, await ctx.reads.eventTypesOfTeams(await ctx.reads.seenTeamsOfOrganization(org)));
  },
  async listOrgBookings(ctx) {
    const org = await ctx.reads.administeredOrganization(ctx.id('orgId'));
    return presentBookings(ctx, await ctx.reads.bookingsOfTeams(await ctx.reads.seenTeamsOfOrganization(org)));
  },
  async listOrgSchedules(ctx) {
    const org = await ctx.reads.administeredOrganization(ctx.id('orgId'));
    return presentSchedules(await ctx.reads.schedulesOf(await ctx.reads.acceptedMembers(org)));
  },
  listOrgUserSchedules: async (ctx) => presentSchedules(await ctx.reads.schedulesOf([(await orgUser(ctx)).userId])),
  async getOrgUserSchedule(ctx) {
    const { userId } = await orgUser(ctx);
    return presentSchedule(await ctx.reads.scheduleOf(userId, ctx.id('scheduleId')));
  },
  createOrgUserSchedule: orgScheduleWrites.create,
  updateOrgUserSchedule: orgScheduleWrites.update,
  deleteOrgUserSchedule: orgScheduleWrites.delete,

  // Admins see every team of the organization; members the ones they belong to.
  listOrgTeams: async (ctx) => (await ctx.reads.teamsOfOrganization(ctx.id('orgId'))).map(presentTeam),
  listOrgTeamsOfUser: async (ctx) => (await ctx.reads.teamsOfOrganization(ctx.id('orgId'), 'mine')).map(presentTeam),
  createOrgTeam: async (ctx) =>
    ctx.command(N.CreateTeam, `org:${ctx.params['orgId']}`, {
      actor_user_id: ctx.userId!,
      org_id: (await ctx.reads.organization(ctx.id('orgId'))).id,
      ...teamFields(ctx.body),
      name: teamFields(ctx.body).name ?? '',
      ...now(),
    }),
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
    return ctx.command(N.CancelBooking, `booking:${uid}`, {
      ...cancelBookingFields(uid, ctx.body),
      requested_at: Date.now(),
    });
  },
  async rescheduleBooking(ctx) {
    ctx.checkBody();
    const uid = ctx.params['bookingUid'] ?? '';
    return ctx.command(N.RescheduleBooking, `booking:${uid}`, {
      ...rescheduleBookingFields(uid, ctx.body),
      requested_at: Date.now(),
    });
  },
};
