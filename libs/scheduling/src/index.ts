export * from './availability/index.js';
export { SCHEDULING_TOPICS } from './topics.js';
export { createSchedulingStore, createSchedulingWriter, ROLES } from './store.js';
export type {
  SchedulingStore,
  SchedulingWriter,
  TeamDoc,
  MembershipDoc,
  InviteDoc,
  EventTypeDoc,
  ScheduleDoc,
  BookingDoc,
  HostCalendarDoc,
  Attendee,
  Role,
  SchedulingType,
} from './store.js';
export {
  reachOf,
  canSeeTeam,
  canManageTeam,
  canOwnTeam,
  assertSeesTeam,
  assertManagesTeam,
  assertOwnsTeam,
  assertMayChangeMembership,
  assertMemberOfOrganization,
  assertAdminOfOrganization,
  assertSeesUserInOrganization,
  isOrganizationAdmin,
  notFound,
  accountReach,
} from './access.js';
export type { Reach } from './access.js';
export {
  lookupUsers,
  presentTeam,
  presentMembership,
  presentEventType,
  presentSchedule,
  presentBooking,
  presentBookingReferences,
} from './presenters.js';
export type { UserSummary, UserLookup } from './presenters.js';
export * as input from './input.js';
export { createOrganization, addOrganizationMember, describeInvite } from './organizations.js';
export { insertMembership, membershipChanged } from './memberships.js';
export type { TeamView, MembershipView, EventTypeView, ScheduleView, BookingView, InviteLinkView } from './replies.js';
export { createBookingFields, cancelBookingFields, rescheduleBookingFields } from './booking-input.js';
export { readsFor } from './user-reads.js';
export type { UserReads } from './user-reads.js';
export { reserveHostTime, releaseHostTime } from './host-calendars.js';
export type { HostCalendars } from './host-calendars.js';
export {
  allocateHosts,
  eventTypeHosts,
  isAvailable,
  roundRobinOrder,
  collectiveHosts,
  takeFirstFree,
  takeAll,
} from './host-allocation.js';
export type { HostAllocationDeps, HostBooking, HostCandidate, RoundRobinCandidate } from './host-allocation.js';
