import type { presentBooking, presentEventType, presentMembership, presentSchedule, presentTeam } from './presenters.js';

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
    /** Deprecated with its record. */
    'platform.scheduling.commands.BookingCommand': BookingView;
    'platform.scheduling.commands.TeamCommand': TeamView | InviteLinkView;
    'platform.scheduling.commands.MembershipCommand': MembershipView | (MembershipView & { teamName: string });
    'platform.scheduling.commands.EventTypeCommand': EventTypeView | { callId: string };
    'platform.scheduling.commands.ScheduleCommand': ScheduleView;
    'platform.scheduling.commands.CreateOrganization': TeamView;
    'platform.scheduling.commands.AddOrganizationMember': MembershipView;
  }
}
