import type { MessageTypeNames } from '@platform/contracts';
import type { CommandHandlerMap } from '@platform/kafka';
import { cancelBooking, createBooking, rescheduleBooking } from './bookings.handlers.js';
import { bookingCommand } from './deprecated/booking-command.js';
import { eventTypeCommand } from './deprecated/event-type-command.js';
import { membershipCommand } from './deprecated/membership-command.js';
import { scheduleCommand } from './deprecated/schedule-command.js';
import { teamCommand } from './deprecated/team-command.js';
import type { HandlerDeps } from './deps.js';
import { createEventType, deleteEventType, requestPhoneCall, updateEventType } from './event-types.handlers.js';
import { acceptTeamInvite, addTeamMember, removeTeamMember, updateTeamMembership } from './memberships.handlers.js';
import { addOrganizationMemberHandler, createOrganizationHandler } from './organizations.handlers.js';
import { createSchedule, deleteSchedule, updateSchedule } from './schedules.handlers.js';
import { createTeam, createTeamInvite, deleteTeam, updateTeam } from './teams.handlers.js';

type N = typeof MessageTypeNames;
export type SchedulingCommand =
  | N['CreateTeam']
  | N['UpdateTeam']
  | N['DeleteTeam']
  | N['CreateTeamInvite']
  | N['AddTeamMember']
  | N['UpdateTeamMembership']
  | N['RemoveTeamMember']
  | N['AcceptTeamInvite']
  | N['CreateEventType']
  | N['UpdateEventType']
  | N['DeleteEventType']
  | N['RequestPhoneCall']
  | N['CreateSchedule']
  | N['UpdateSchedule']
  | N['DeleteSchedule']
  | N['TeamCommand']
  | N['MembershipCommand']
  | N['EventTypeCommand']
  | N['ScheduleCommand']
  | N['CreateBooking']
  | N['CancelBooking']
  | N['RescheduleBooking']
  | N['BookingCommand']
  | N['CreateOrganization']
  | N['AddOrganizationMember'];

/**
 * Every scheduling command has exactly one handler: a missing entry is a type error. The deprecated family
 * records (TeamCommand, MembershipCommand, EventTypeCommand, ScheduleCommand, BookingCommand) are read into
 * the records of their intents and handled by those records' handlers.
 */
export const commandHandlers: CommandHandlerMap<SchedulingCommand, HandlerDeps> = {
  'platform.scheduling.commands.CreateTeam': createTeam,
  'platform.scheduling.commands.UpdateTeam': updateTeam,
  'platform.scheduling.commands.DeleteTeam': deleteTeam,
  'platform.scheduling.commands.CreateTeamInvite': createTeamInvite,
  'platform.scheduling.commands.AddTeamMember': addTeamMember,
  'platform.scheduling.commands.UpdateTeamMembership': updateTeamMembership,
  'platform.scheduling.commands.RemoveTeamMember': removeTeamMember,
  'platform.scheduling.commands.AcceptTeamInvite': acceptTeamInvite,
  'platform.scheduling.commands.CreateEventType': createEventType,
  'platform.scheduling.commands.UpdateEventType': updateEventType,
  'platform.scheduling.commands.DeleteEventType': deleteEventType,
  'platform.scheduling.commands.RequestPhoneCall': requestPhoneCall,
  'platform.scheduling.commands.CreateSchedule': createSchedule,
  'platform.scheduling.commands.UpdateSchedule': updateSchedule,
  'platform.scheduling.commands.DeleteSchedule': deleteSchedule,
  'platform.scheduling.commands.TeamCommand': teamCommand,
  'platform.scheduling.commands.MembershipCommand': membershipCommand,
  'platform.scheduling.commands.EventTypeCommand': eventTypeCommand,
  'platform.scheduling.commands.ScheduleCommand': scheduleCommand,
  'platform.scheduling.commands.CreateBooking': createBooking,
  'platform.scheduling.commands.CancelBooking': cancelBooking,
  'platform.scheduling.commands.RescheduleBooking': rescheduleBooking,
  'platform.scheduling.commands.BookingCommand': bookingCommand,
  'platform.scheduling.commands.CreateOrganization': createOrganizationHandler,
  'platform.scheduling.commands.AddOrganizationMember': addOrganizationMemberHandler,
};

export type { HandlerDeps } from './deps.js';
