import {
  assertAdminOfOrganization,
  assertMemberOfOrganization,
  assertSeesTeam,
  assertSeesUserInOrganization,
  canSeeTeam,
  isOrganizationAdmin,
  notFound,
  reachOf,
  type Reach,
} from './access.js';
import type { BookingDoc, EventTypeDoc, MembershipDoc, ScheduleDoc, SchedulingStore, TeamDoc } from './store.js';

/**
 * The scheduling data as one user may see it: the tenant of a scheduling request is its authorizing user,
 * and every read here is bounded by that user's memberships. What the user cannot see is "not found" (its
 * existence is not revealed); what they see but may not read in full is "not allowed" (see access.ts).
 */
export function readsFor(store: SchedulingStore, userId: string) {
  let reach: Promise<Reach> | undefined;
  const reachOfUser = () => (reach ??= store.membershipsOfUser(userId).then((m) => reachOf(userId, m)));
  const acceptedMembers = async (teamId: number) =>
    (await store.membershipsOfTeam(teamId)).filter((m) => m.accepted).map((m) => m.user_id);

  const reads = {
    reach: reachOfUser,

    /** A team the user sees, in the organization of the path when there is one. */
    async team(teamId: number, orgId?: number): Promise<TeamDoc> {
      return assertSeesTeam(await reachOfUser(), await store.team(teamId), orgId);
    },
    /** The user's own teams (organizations are not teams). */
    async teams(): Promise<TeamDoc[]> {
      const teams = await store.teamsByIds([...(await reachOfUser()).roles.keys()]);
      return teams.filter((t) => !t.is_organization);
    },
    async organization(orgId: number): Promise<TeamDoc> {
      return assertMemberOfOrganization(await reachOfUser(), await store.team(orgId));
    },
    async administeredOrganization(orgId: number): Promise<TeamDoc> {
      return assertAdminOfOrganization(await reachOfUser(), await store.team(orgId));
    },
    /** An organization's teams: every one for its admins, the ones they belong to for members. */
    async teamsOfOrganization(orgId: number, only: 'visible' | 'mine' = 'visible'): Promise<TeamDoc[]> {
      const org = await reads.organization(orgId);
      const r = await reachOfUser();
      const teams = await store.teamsOfOrganization(org.id);
      if (only === 'mine') return teams.filter((t) => r.roles.has(t.id));
      return isOrganizationAdmin(r, org.id) ? teams : teams.filter((t) => r.roles.has(t.id));
    },
    /** The teams of an organization the user may see (members see theirs, admins all). */
    async seenTeamsOfOrganization(org: TeamDoc): Promise<TeamDoc[]> {
      const r = await reachOfUser();
      return (await store.teamsOfOrganization(org.id)).filter((t) => canSeeTeam(r, t));
    },
    /** A member of an organization whose schedules the user may read (themself, or any as an admin). */
    async memberOfOrganization(orgId: number, memberId: string): Promise<{ org: TeamDoc; userId: string }> {
      const org = await reads.organization(orgId);
      assertSeesUserInOrganization(
        await reachOfUser(),
        org,
        memberId,
        Boolean(await store.membershipOf(org.id, memberId)),
      );
      return { org, userId: memberId };
    },
    acceptedMembers: (team: TeamDoc) => acceptedMembers(team.id),

    membershipsOf: (team: TeamDoc): Promise<MembershipDoc[]> => store.membershipsOfTeam(team.id),
    async membershipOf(team: TeamDoc, membershipId: number): Promise<MembershipDoc> {
      const membership = await store.membership(membershipId);
      if (!membership || membership.team_id !== team.id) throw notFound('Membership');
      return membership;
    },

    eventTypesOfTeams: (teams: TeamDoc[]): Promise<EventTypeDoc[]> => store.eventTypesOfTeams(teams.map((t) => t.id)),
    async eventTypeOf(team: TeamDoc, eventTypeId: number): Promise<EventTypeDoc> {
      const eventType = await store.eventType(eventTypeId);
      if (!eventType || eventType.team_id !== team.id) throw notFound('Event type');
      return eventType;
    },
    /** The hosts an event type shows: its owner, its listed hosts, or every accepted member of its team. */
    async hostsOf(eventType: EventTypeDoc): Promise<string[]> {
      if (eventType.team_id === null) return [eventType.owner_user_id!];
      return eventType.host_user_ids.length > 0 ? eventType.host_user_ids : acceptedMembers(eventType.team_id);
    },
    ownEventTypes: (): Promise<EventTypeDoc[]> => store.eventTypesOfUser(userId),
    async ownEventType(eventTypeId: number): Promise<EventTypeDoc> {
      const eventType = await store.eventType(eventTypeId);
      if (!eventType || eventType.owner_user_id !== userId) throw notFound('Event type');
      return eventType;
    },

    schedulesOf: (userIds: string[]): Promise<ScheduleDoc[]> => store.schedulesOfUsers(userIds),
    ownSchedules: (): Promise<ScheduleDoc[]> => store.schedulesOfUsers([userId]),
    async scheduleOf(ownerId: string, scheduleId: number): Promise<ScheduleDoc> {
      const schedule = await store.schedule(scheduleId);
      if (!schedule || schedule.user_id !== ownerId) throw notFound('Schedule');
      return schedule;
    },

    bookingsOfTeams: (teams: TeamDoc[]): Promise<BookingDoc[]> => store.bookingsOfTeams(teams.map((t) => t.id)),
    hostedBookings: (): Promise<BookingDoc[]> => store.bookingsOfHost(userId),
    async hostedBooking(uid: string): Promise<BookingDoc> {
      const booking = await store.booking(uid);
      if (!booking || !booking.host_user_ids.includes(userId)) throw notFound('Booking');
      return booking;
    },
    async bookingOfTeam(team: TeamDoc, uid: string): Promise<BookingDoc> {
      const booking = await store.booking(uid);
      if (!booking || booking.team_id !== team.id) throw notFound('Booking');
      return booking;
    },
  };
  return reads;
}

export type UserReads = ReturnType<typeof readsFor>;
