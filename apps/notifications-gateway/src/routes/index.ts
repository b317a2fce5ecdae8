import type { HttpApp } from '@platform/http';
import type { GatewayDeps } from '../deps.js';
import { listInboxNotificationsRoute } from './inbox/list-inbox-notifications.route.js';
import { markAllInboxNotificationsReadRoute } from './inbox/mark-all-inbox-notifications-read.route.js';
import { updateInboxNotificationReadStatusRoute } from './inbox/update-inbox-notification-read-status.route.js';
import { watchInboxNotificationsRoute } from './inbox/watch-inbox-notifications.route.js';
import { listDispatchMethodsRoute } from './notifications/list-dispatch-methods.route.js';
import { sendCustomNotificationRoute } from './notifications/send-custom-notification.route.js';
import { sendTestNotificationRoute } from './notifications/send-test-notification.route.js';
import { getNotificationPreferencesRoute } from './preferences/get-notification-preferences.route.js';
import { updateNotificationPreferencesRoute } from './preferences/update-notification-preferences.route.js';
import { getNotificationSettingsRoute } from './settings/get-notification-settings.route.js';
import { updateNotificationSettingsRoute } from './settings/update-notification-settings.route.js';
import { listTemplatesRoute } from './templates/list-templates.route.js';
import { getUserRoute } from './users/get-user.route.js';

/** Every operation of the API (`/api/v2`), one route per file. */
export const routes: Array<(app: HttpApp, deps: GatewayDeps) => void> = [
  sendCustomNotificationRoute,
  sendTestNotificationRoute,
  listDispatchMethodsRoute,
  listInboxNotificationsRoute,
  markAllInboxNotificationsReadRoute,
  updateInboxNotificationReadStatusRoute,
  watchInboxNotificationsRoute,
  getNotificationSettingsRoute,
  updateNotificationSettingsRoute,
  listTemplatesRoute,
  getNotificationPreferencesRoute,
  updateNotificationPreferencesRoute,
  getUserRoute,
];
