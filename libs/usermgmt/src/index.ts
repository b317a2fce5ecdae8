export { createUsermgmtStore, createUsermgmtWriter } from './store.js';
export type { UsermgmtStore, UsermgmtWriter } from './store.js';
export type {
  CorsOriginDoc,
  RedirectUriDoc,
  JwtTemplateDoc,
  WebhookEndpointDoc,
  UserDoc,
  EventLogDoc,
} from './models.js';
export * from './presenters.js';
export { USERMGMT_TOPICS } from './topics.js';
export {
  renderJwtTemplate,
  validateJwtTemplate,
  JWT_TEMPLATE_PLACEHOLDERS,
  JWT_TEMPLATE_MAX_LENGTH,
} from './rules/jwt-template.js';
export type { JwtTemplateContext } from './rules/jwt-template.js';
export { normaliseOrigin, validateRedirectUri } from './rules/urls.js';
export { validateEventTypes, WEBHOOK_EVENT_TYPES, WEBHOOK_ENDPOINT_STATUSES } from './rules/events.js';
export type { WebhookEventType, WebhookEndpointStatus } from './rules/events.js';
export { WEBHOOK_RATE_LIMIT, orderingKeyOf, validateRateLimit } from './rules/delivery-options.js';
export type { Page, PageRequest } from '@platform/mongo';
export { MAX_WEBHOOK_ENDPOINTS } from './repositories/webhook-endpoints.js';
export { MAX_REDIRECT_URIS } from './repositories/redirect-uris.js';
export { webhookEventId, userEvent } from './webhook-payload.js';
export type { UserEvent, UserEventType } from './webhook-payload.js';
export { EVENT_RETENTION_MS, EVENT_SETTLE_MS } from './repositories/event-log.js';
export type { EventQuery, LoggedEvent } from './repositories/event-log.js';
export { MAX_METADATA_KEYS } from './repositories/users.js';
export type {} from './replies.js';
