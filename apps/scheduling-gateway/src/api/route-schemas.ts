import { Type, type TSchema } from '@platform/http';
import type { RouteName } from './route-table.js';
import * as S from './schemas.js';

export interface RouteSchemas {
  /** The `data` of the success envelope. */
  data: TSchema;
  body?: TSchema;
  query?: TSchema;
}

const list = (item: TSchema) => Type.Array(item);
const bookings = { data: list(S.Booking), query: S.BookingsQuery };

/** What each /v2 route takes and answers (a route left out is a type error). */
export const ROUTE_SCHEMAS: Record<RouteName, RouteSchemas> = {
  listEventTypes: { data: list(S.EventType) },
  getEventType: { data: S.EventType },
  createEventType: { data: S.EventType, body: S.CreatePersonalEventTypeBody },
  updateEventType: { data: S.EventType, body: S.UpdatePersonalEventTypeBody },
  deleteEventType: { data: S.EventType },
  listSchedules: { data: list(S.Schedule) },
  getSchedule: { data: S.Schedule },
  createSchedule: { data: S.Schedule, body: S.CreateScheduleBody },
  updateSchedule: { data: S.Schedule, body: S.UpdateScheduleBody },
  deleteSchedule: { data: S.Schedule },
  listBookings: bookings,
  getBooking: { data: S.Booking },

  listTeams: { data: list(S.Team) },
  getTeam: { data: S.Team },
  getOrgTeam: { data: S.Team },
  createTeam: { data: S.Team, body: S.CreateTeamBody },
  updateTeam: { data: S.Team, body: S.UpdateTeamBody },
  deleteTeam: { data: S.Team },

  listTeamEventTypes: { data: list(S.EventType) },
  getTeamEventType: { data: S.EventType },
  listOrgTeamEventTypes: { data: list(S.EventType) },
  getOrgTeamEventType: { data: S.EventType },
  createTeamEventType: { data: S.EventType, body: S.CreateEventTypeBody },
  updateTeamEventType: { data: S.EventType, body: S.UpdateEventTypeBody },
  deleteTeamEventType: { data: S.EventType },
  teamPhoneCall: { data: S.PhoneCall, body: S.PhoneCallBody },
  createOrgTeamEventType: { data: S.EventType, body: S.CreateEventTypeBody },
  updateOrgTeamEventType: { data: S.EventType, body: S.UpdateEventTypeBody },
  deleteOrgTeamEventType: { data: S.EventType },
  orgTeamPhoneCall: { data: S.PhoneCall, body: S.PhoneCallBody },

  listTeamBookings: bookings,
  listOrgTeamBookings: bookings,
  orgTeamBookingReferences: { data: list(S.BookingReference) },

  listTeamSchedules: { data: list(S.Schedule) },
  listOrgTeamSchedules: { data: list(S.Schedule) },
  listOrgTeamUserSchedules: { data: list(S.Schedule) },

  listTeamMemberships: { data: list(S.Membership) },
  getTeamMembership: { data: S.Membership },
  listOrgTeamMemberships: { data: list(S.Membership) },
  getOrgTeamMembership: { data: S.Membership },
  createTeamMembership: { data: S.Membership, body: S.CreateMembershipBody },
  updateTeamMembership: { data: S.Membership, body: S.UpdateMembershipBody },
  deleteTeamMembership: { data: S.Membership },
  teamInvite: { data: S.InviteLink },
  createOrgTeamMembership: { data: S.Membership, body: S.CreateMembershipBody },
  updateOrgTeamMembership: { data: S.Membership, body: S.UpdateMembershipBody },
  deleteOrgTeamMembership: { data: S.Membership },
  orgTeamInvite: { data: S.InviteLink },

  listOrgEventTypes: { data: list(S.EventType) },
  listOrgBookings: bookings,
  listOrgSchedules: { data: list(S.Schedule) },
  listOrgUserSchedules: { data: list(S.Schedule) },
  getOrgUserSchedule: { data: S.Schedule },
  createOrgUserSchedule: { data: S.Schedule, body: S.CreateScheduleBody },
  updateOrgUserSchedule: { data: S.Schedule, body: S.UpdateScheduleBody },
  deleteOrgUserSchedule: { data: S.Schedule },
  listOrgTeams: { data: list(S.Team) },
  listOrgTeamsOfUser: { data: list(S.Team) },
  createOrgTeam: { data: S.Team, body: S.CreateTeamBody },
  updateOrgTeam: { data: S.Team, body: S.UpdateTeamBody },
  deleteOrgTeam: { data: S.Team },

  createBooking: { data: S.Booking, body: S.CreateBookingBody },
  cancelBooking: { data: S.Booking, body: S.CancelBookingBody },
  rescheduleBooking: { data: S.Booking, body: S.RescheduleBookingBody },
};
