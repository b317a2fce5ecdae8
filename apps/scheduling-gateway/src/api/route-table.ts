import type { Scope } from '@platform/oauth';

/**
 * Every /v2 scheduling endpoint, the one place that says which scope each needs (the spec's scope tables).
 * `public` endpoints need no token. `[T]` = /v2/teams/:teamId, `[OT]` = /v2/organizations/:orgId/teams/:teamId.
 */
export type RouteScope = Scope | 'public';

export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  scope: RouteScope;
  summary: string;
}

const T = '/v2/teams/:teamId';
const OT = '/v2/organizations/:orgId/teams/:teamId';
const O = '/v2/organizations/:orgId';

export const ROUTES = {
  // User-level scopes (the spec names BOOKING_READ/_WRITE; the rest of the list follows the real service):
  // the authorizing user's own event types, schedules and bookings.
  listEventTypes: {
    method: 'GET',
    url: '/v2/event-types',
    scope: 'EVENT_TYPE_READ',
    summary: "The user's own event types",
  },
  getEventType: {
    method: 'GET',
    url: '/v2/event-types/:eventTypeId',
    scope: 'EVENT_TYPE_READ',
    summary: "One of the user's event types",
  },
  createEventType: {
    method: 'POST',
    url: '/v2/event-types',
    scope: 'EVENT_TYPE_WRITE',
    summary: 'Create an event type hosted by the user',
  },
  updateEventType: {
    method: 'PATCH',
    url: '/v2/event-types/:eventTypeId',
    scope: 'EVENT_TYPE_WRITE',
    summary: "Edit one of the user's event types",
  },
  deleteEventType: {
    method: 'DELETE',
    url: '/v2/event-types/:eventTypeId',
    scope: 'EVENT_TYPE_WRITE',
    summary: "Delete one of the user's event types",
  },
  listSchedules: { method: 'GET', url: '/v2/schedules', scope: 'SCHEDULE_READ', summary: "The user's schedules" },
  getSchedule: {
    method: 'GET',
    url: '/v2/schedules/:scheduleId',
    scope: 'SCHEDULE_READ',
    summary: "One of the user's schedules",
  },
  createSchedule: {
    method: 'POST',
    url: '/v2/schedules',
    scope: 'SCHEDULE_WRITE',
    summary: 'Create a schedule (the first is the default)',
  },
  updateSchedule: {
    method: 'PATCH',
    url: '/v2/schedules/:scheduleId',
    scope: 'SCHEDULE_WRITE',
    summary: "Edit one of the user's schedules",
  },
  deleteSchedule: {
    method: 'DELETE',
    url: '/v2/schedules/:scheduleId',
    scope: 'SCHEDULE_WRITE',
    summary: "Delete one of the user's schedules",
  },
  listBookings: { method: 'GET', url: '/v2/bookings', scope: 'BOOKING_READ', summary: 'The bookings the user hosts' },
  getBooking: {
    method: 'GET',
    url: '/v2/bookings/:bookingUid',
    scope: 'BOOKING_READ',
    summary: 'A booking the user hosts',
  },
  // TEAM_PROFILE
  listTeams: { method: 'GET', url: '/v2/teams', scope: 'TEAM_PROFILE_READ', summary: "The user's teams" },
  getTeam: { method: 'GET', url: T, scope: 'TEAM_PROFILE_READ', summary: 'A team' },
  getOrgTeam: { method: 'GET', url: OT, scope: 'TEAM_PROFILE_READ', summary: "An organization's team" },
  createTeam: {
    method: 'POST',
    url: '/v2/teams',
    scope: 'TEAM_PROFILE_WRITE',
    summary: 'Create a team (the caller owns it)',
  },
  updateTeam: { method: 'PATCH', url: T, scope: 'TEAM_PROFILE_WRITE', summary: 'Edit a team' },
  deleteTeam: { method: 'DELETE', url: T, scope: 'TEAM_PROFILE_WRITE', summary: 'Delete a team' },
  // TEAM_EVENT_TYPE
  listTeamEventTypes: {
    method: 'GET',
    url: `${T}/event-types`,
    scope: 'TEAM_EVENT_TYPE_READ',
    summary: "A team's event types",
  },
  getTeamEventType: {
    method: 'GET',
    url: `${T}/event-types/:eventTypeId`,
    scope: 'TEAM_EVENT_TYPE_READ',
    summary: 'A team event type',
  },
  listOrgTeamEventTypes: {
    method: 'GET',
    url: `${OT}/event-types`,
    scope: 'TEAM_EVENT_TYPE_READ',
    summary: "An organization team's event types",
  },
  getOrgTeamEventType: {
    method: 'GET',
    url: `${OT}/event-types/:eventTypeId`,
    scope: 'TEAM_EVENT_TYPE_READ',
    summary: "An organization team's event type",
  },
  createTeamEventType: {
    method: 'POST',
    url: `${T}/event-types`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: 'Create a team event type',
  },
  updateTeamEventType: {
    method: 'PATCH',
    url: `${T}/event-types/:eventTypeId`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: 'Edit a team event type',
  },
  deleteTeamEventType: {
    method: 'DELETE',
    url: `${T}/event-types/:eventTypeId`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: 'Delete a team event type',
  },
  teamPhoneCall: {
    method: 'POST',
    url: `${T}/event-types/:eventTypeId/create-phone-call`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: 'Request an AI phone call that books this event type',
  },
  createOrgTeamEventType: {
    method: 'POST',
    url: `${OT}/event-types`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: "Create an organization team's event type",
  },
  updateOrgTeamEventType: {
    method: 'PATCH',
    url: `${OT}/event-types/:eventTypeId`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: "Edit an organization team's event type",
  },
  deleteOrgTeamEventType: {
    method: 'DELETE',
    url: `${OT}/event-types/:eventTypeId`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: "Delete an organization team's event type",
  },
  orgTeamPhoneCall: {
    method: 'POST',
    url: `${OT}/event-types/:eventTypeId/create-phone-call`,
    scope: 'TEAM_EVENT_TYPE_WRITE',
    summary: 'Request an AI phone call that books this event type',
  },
  // TEAM_BOOKING
  listTeamBookings: { method: 'GET', url: `${T}/bookings`, scope: 'TEAM_BOOKING_READ', summary: "A team's bookings" },
  listOrgTeamBookings: {
    method: 'GET',
    url: `${OT}/bookings`,
    scope: 'TEAM_BOOKING_READ',
    summary: "An organization team's bookings",
  },
  orgTeamBookingReferences: {
    method: 'GET',
    url: `${OT}/bookings/:bookingUid/references`,
    scope: 'TEAM_BOOKING_READ',
    summary: "A booking's calendar and video references",
  },
  // TEAM_SCHEDULE
  listTeamSchedules: {
    method: 'GET',
    url: `${T}/schedules`,
    scope: 'TEAM_SCHEDULE_READ',
    summary: "The schedules of a team's members",
  },
  listOrgTeamSchedules: {
    method: 'GET',
    url: `${OT}/schedules`,
    scope: 'TEAM_SCHEDULE_READ',
    summary: "The schedules of an organization team's members",
  },
  listOrgTeamUserSchedules: {
    method: 'GET',
    url: `${OT}/users/:userId/schedules`,
    scope: 'TEAM_SCHEDULE_READ',
    summary: "A team member's schedules",
  },
  // TEAM_MEMBERSHIP
  listTeamMemberships: {
    method: 'GET',
    url: `${T}/memberships`,
    scope: 'TEAM_MEMBERSHIP_READ',
    summary: "A team's memberships",
  },
  getTeamMembership: {
    method: 'GET',
    url: `${T}/memberships/:membershipId`,
    scope: 'TEAM_MEMBERSHIP_READ',
    summary: 'A team membership',
  },
  listOrgTeamMemberships: {
    method: 'GET',
    url: `${OT}/memberships`,
    scope: 'TEAM_MEMBERSHIP_READ',
    summary: "An organization team's memberships",
  },
  getOrgTeamMembership: {
    method: 'GET',
    url: `${OT}/memberships/:membershipId`,
    scope: 'TEAM_MEMBERSHIP_READ',
    summary: "An organization team's membership",
  },
  createTeamMembership: {
    method: 'POST',
    url: `${T}/memberships`,
    scope: 'TEAM_MEMBERSHIP_WRITE',
    summary: 'Add a member',
  },
  updateTeamMembership: {
    method: 'PATCH',
    url: `${T}/memberships/:membershipId`,
    scope: 'TEAM_MEMBERSHIP_WRITE',
    summary: "Change a member's role or acceptance",
  },
  deleteTeamMembership: {
    method: 'DELETE',
    url: `${T}/memberships/:membershipId`,
    scope: 'TEAM_MEMBERSHIP_WRITE',
    summary: 'Remove a member',
  },
  teamInvite: { method: 'POST', url: `${T}/invite`, scope: 'TEAM_MEMBERSHIP_WRITE', summary: 'Create an invite link' },
  createOrgTeamMembership: {
    method: 'POST',
    url: `${OT}/memberships`,
    scope: 'TEAM_MEMBERSHIP_WRITE',
    summary: 'Add a member to an organization team',
  },
  updateOrgTeamMembership: {
    method: 'PATCH',
    url: `${OT}/memberships/:membershipId`,
    scope: 'TEAM_MEMBERSHIP_WRITE',
    summary: "Change an organization team member's role or acceptance",
  },
  deleteOrgTeamMembership: {
    method: 'DELETE',
    url: `${OT}/memberships/:membershipId`,
    scope: 'TEAM_MEMBERSHIP_WRITE',
    summary: 'Remove a member from an organization team',
  },
  orgTeamInvite: {
    method: 'POST',
    url: `${OT}/invite`,
    scope: 'TEAM_MEMBERSHIP_WRITE',
    summary: 'Create an invite link to an organization team',
  },
  // ORG_*
  listOrgEventTypes: {
    method: 'GET',
    url: `${O}/teams/event-types`,
    scope: 'ORG_EVENT_TYPE_READ',
    summary: "Every event type of the organization's teams",
  },
  listOrgBookings: {
    method: 'GET',
    url: `${O}/bookings`,
    scope: 'ORG_BOOKING_READ',
    summary: "Every booking of the organization's teams",
  },
  listOrgSchedules: {
    method: 'GET',
    url: `${O}/schedules`,
    scope: 'ORG_SCHEDULE_READ',
    summary: "Every schedule of the organization's members",
  },
  listOrgUserSchedules: {
    method: 'GET',
    url: `${O}/users/:userId/schedules`,
    scope: 'ORG_SCHEDULE_READ',
    summary: "A member's schedules",
  },
  getOrgUserSchedule: {
    method: 'GET',
    url: `${O}/users/:userId/schedules/:scheduleId`,
    scope: 'ORG_SCHEDULE_READ',
    summary: "A member's schedule",
  },
  createOrgUserSchedule: {
    method: 'POST',
    url: `${O}/users/:userId/schedules`,
    scope: 'ORG_SCHEDULE_WRITE',
    summary: 'Create a schedule for a member',
  },
  updateOrgUserSchedule: {
    method: 'PATCH',
    url: `${O}/users/:userId/schedules/:scheduleId`,
    scope: 'ORG_SCHEDULE_WRITE',
    summary: "Edit a member's schedule",
  },
  deleteOrgUserSchedule: {
    method: 'DELETE',
    url: `${O}/users/:userId/schedules/:scheduleId`,
    scope: 'ORG_SCHEDULE_WRITE',
    summary: "Delete a member's schedule",
  },
  listOrgTeams: { method: 'GET', url: `${O}/teams`, scope: 'ORG_PROFILE_READ', summary: "The organization's teams" },
  listOrgTeamsOfUser: {
    method: 'GET',
    url: `${O}/teams/me`,
    scope: 'ORG_PROFILE_READ',
    summary: "The organization's teams the caller belongs to",
  },
  createOrgTeam: {
    method: 'POST',
    url: `${O}/teams`,
    scope: 'ORG_PROFILE_WRITE',
    summary: 'Create a team in the organization',
  },
  updateOrgTeam: { method: 'PATCH', url: OT, scope: 'ORG_PROFILE_WRITE', summary: "Edit an organization's team" },
  deleteOrgTeam: { method: 'DELETE', url: OT, scope: 'ORG_PROFILE_WRITE', summary: "Delete an organization's team" },
  // Public booking endpoints
  createBooking: {
    method: 'POST',
    url: '/v2/bookings',
    scope: 'public',
    summary: 'Book an event type (no token needed)',
  },
  cancelBooking: {
    method: 'POST',
    url: '/v2/bookings/:bookingUid/cancel',
    scope: 'public',
    summary: 'Cancel a booking (no token needed)',
  },
  rescheduleBooking: {
    method: 'POST',
    url: '/v2/bookings/:bookingUid/reschedule',
    scope: 'public',
    summary: 'Reschedule a booking (no token needed)',
  },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;
