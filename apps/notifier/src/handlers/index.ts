import type { MessageTypeNames } from '@platform/contracts';
import type { CommandHandlerMap } from '@platform/kafka';
import type { HandlerDeps } from './deps.js';
import { markAllRead, setReadStatus } from './inbox.handlers.js';
import { sendCustomNotification, sendTestNotification } from './send.handlers.js';
import { updatePreferences, updateSettings } from './settings.handlers.js';

type N = typeof MessageTypeNames;
export type NotificationCommand =
  | N['SendCustomNotification']
  | N['SendTestNotification']
  | N['SetInboxNotificationReadStatus']
  | N['MarkAllInboxNotificationsRead']
  | N['UpdateNotificationSettings']
  | N['UpdateNotificationPreferences'];

/** Every notifications command has exactly one handler: a missing entry is a type error. */
export const commandHandlers: CommandHandlerMap<NotificationCommand, HandlerDeps> = {
  'platform.notifications.commands.SendCustomNotification': sendCustomNotification,
  'platform.notifications.commands.SendTestNotification': sendTestNotification,
  'platform.notifications.commands.SetInboxNotificationReadStatus': setReadStatus,
  'platform.notifications.commands.MarkAllInboxNotificationsRead': markAllRead,
  'platform.notifications.commands.UpdateNotificationSettings': updateSettings,
  'platform.notifications.commands.UpdateNotificationPreferences': updatePreferences,
};

export type { HandlerDeps, Kicker } from './deps.js';
