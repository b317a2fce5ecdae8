import type { InboxNotificationJson, PreferenceJson } from './presenters.js';

export interface QueuedReply {
  /** The queued notification, or null when the recipient has its template disabled. */
  notification_id: string | null;
}

export interface ReadStatusReply {
  notification: InboxNotificationJson;
  unread_count: number;
}

declare module '@platform/contracts' {
  interface CommandReplies {
    'platform.notifications.commands.SendCustomNotification': QueuedReply;
    'platform.notifications.commands.SendTestNotification': QueuedReply;
    'platform.notifications.commands.SetInboxNotificationReadStatus': ReadStatusReply;
    'platform.notifications.commands.MarkAllInboxNotificationsRead': { marked: number };
    'platform.notifications.commands.UpdateNotificationSettings': { notifier_paused: boolean; changed: boolean };
    'platform.notifications.commands.UpdateNotificationPreferences': PreferenceJson[];
  }
}
