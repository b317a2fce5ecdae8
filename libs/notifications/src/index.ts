export {
  INBOX_PAGE_SIZE,
  INVALID_QUERY_MESSAGE,
  MAX_LIST_IDS,
  NOT_YOUR_NOTIFICATION,
  UUID_LIST_RULE,
  listsOverLimit,
  matchesFilter,
  readInboxListQuery,
  watchQueryOf,
} from './inbox-query.js';
export type {
  Format,
  InboxFilter,
  InboxFilterParams,
  InboxListParams,
  InboxListQuery,
  ReadStatus,
  Validation,
  WatchParams,
  WatchQuery,
} from './inbox-query.js';
export {
  LINK_PATTERN,
  PLATFORM_NOTICES_DEPLOYMENT,
  TEMPLATE_IDS,
  TEMPLATES,
  iconOf,
  templatesOfKind,
} from './templates.js';
export type {
  IconFamily,
  NotificationTemplate,
  TemplateDefinition,
  TemplateKind,
  TemplateMethod,
} from './templates.js';
export { renderActions, renderTemplate } from './render.js';
export type { RenderData } from './render.js';
export { markdownToPlaintext } from './plaintext.js';
export { NOTIFICATIONS_TOPICS } from './topics.js';
export { createNotificationsStore, createNotificationsWriter } from './store.js';
export type { NotificationsStore, NotificationsWriter } from './store.js';
export { laneOf } from './models.js';
export type {
  DeliveryStatus,
  DispatchMethod,
  InboxAction,
  InboxDoc,
  MethodDelivery,
  OutgoingDoc,
  PreferenceDoc,
} from './models.js';
export type { UnreadChange } from './unread.js';
export { inboxNotificationFromEvent, inboxNotificationJson, preferenceJson } from './presenters.js';
export type { InboxNotificationJson, PreferenceJson } from './presenters.js';
export type { QueuedReply, ReadStatusReply } from './replies.js';
