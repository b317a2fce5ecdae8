import type {
  presentBooking,
  presentEventType,
  presentMembership,
  presentSchedule,
  presentTeam,
} from './presenters.js';

export type TeamView = ReturnType<typeof presentTeam>;
export type MembershipView = ReturnType<typeof presentMembership>;
export type EventTypeView = ReturnType<typeof presentEventType>;
export type ScheduleView = ReturnType<typeof presentSchedule>;
export type BookingView = ReturnType<typeof presentBooking>;
export interface InviteLinkView {
  token: string;
  inviteLink: string;
}

/** Each scheduling command's reply: the API object the gateway puts in `data` (see CommandReplies). */
declare module '@platform/contracts' {
  interface CommandReplies {
    'platform.scheduling.commands.CreateBooking': BookingView;
    'platform.scheduling.commands.CancelBooking': BookingView;
    'platform.scheduling.commands.RescheduleBooking': BookingView;
    'platform.scheduling.commands.CreateTeam': TeamView;
    'platform.scheduling.commands.UpdateTeam': TeamView;
    'platform.scheduling.commands.DeleteTeam': TeamView;
    'platform.scheduling.commands.CreateTeamInvite': InviteLinkView;
    'platform.scheduling.commands.AddTeamMember': MembershipView;
    'platform.scheduling.commands.UpdateTeamMembership': MembershipView;
    'platform.scheduling.commands.RemoveTeamMember': MembershipView;
    'platform.scheduling.commands.AcceptTeamInvite': MembershipView | (MembershipView & { teamName: string });
    'platform.scheduling.commands.CreateEventType': EventTypeView;
    'platform.scheduling.commands.UpdateEventType': EventTypeView;
    'platform.scheduling.commands.DeleteEventType': EventTypeView;
    'platform.scheduling.commands.RequestPhoneCall': { callId: string };
    'platform.scheduling.commands.CreateSchedule': ScheduleView;
    'platform.scheduling.commands.UpdateSchedule': ScheduleView;
    'platform.scheduling.commands.DeleteSchedule': ScheduleView;
    /** Deprecated with their records. */
    'platform.scheduling.commands.BookingCommand': BookingView;
    'platform.scheduling.commands.TeamCommand': TeamView | InviteLinkView;
    'platform.scheduling.commands.MembershipCommand': MembershipView | (MembershipView & { teamName: string });
    'platform.scheduling.commands.EventTypeCommand': EventTypeView | { callId: string };
    'platform.scheduling.commands.ScheduleCommand': ScheduleView;
    'platform.scheduling.commands.CreateOrganization': TeamView;
    'platform.scheduling.commands.AddOrganizationMember': MembershipView;
  }
}
