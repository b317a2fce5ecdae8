export { MAX_LONG_URL_LENGTH, readLongUrl } from './long-url.js';
export type { LongUrlProblem, LongUrlResult } from './long-url.js';
export { HASH_LENGTH, hashForCommand, keywordProblem, newGroupGuid, randomHash } from './back-half.js';
export {
  SHORTLINK_ID_MAX_LENGTH,
  SHORTLINK_ID_PATTERN,
  formatShortlinkId,
  isBrandedDomain,
  parseShortlinkId,
} from './shortlink-id.js';
export type { ShortlinkId } from './shortlink-id.js';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE,
  MAX_PAGE_SIZE,
  QR_CODE_TYPES,
  decodeSearchAfter,
  encodeSearchAfter,
  readLinkListQuery,
  readQrListQuery,
} from './list-query.js';
export type { FieldProblem, LinkListQuery, QrCodeType, QrListQuery, Tristate } from './list-query.js';
export { LINKS_TOPICS } from './topics.js';
export { GROUP_ROLES, MAX_TAGS_PER_GROUP, WEBHOOK_EVENTS, reuseKeyOf } from './models.js';
export { cachedDirectory, redisDirectoryStamps } from './directory.js';
export type {
  CachedDirectory,
  Directory,
  DirectoryCacheOptions,
  DirectoryScope,
  DirectoryStamps,
} from './directory.js';
export { createLinksStore } from './read-store.js';
export type { LinksStore } from './read-store.js';
export { createLinksWriter } from './writer.js';
export type { LinksWriter } from './writer.js';
export type {
  CampaignDoc,
  ChannelDoc,
  Deeplink,
  DomainDoc,
  GroupDoc,
  GroupRole,
  LinkDoc,
  LinkRedirectFields,
  LinksOrganizationDoc,
  ProfileDoc,
  QrCodeDoc,
  QrLogoDoc,
  WebhookDoc,
  WebhookEvent,
} from './models.js';
export { bitlyTime, qrContent, qrFullJson, qrSummaryJson, shortlinkJson, webhookJson } from './presenters.js';
export type { QrSummaryJson, ShortlinkJson, WebhookJson } from './presenters.js';
export type { ShortlinkReply } from './replies.js';
export {
  MAX_USAGE_UNITS,
  USAGE_LIMITS,
  USAGE_UNITS,
  defaultUsageStart,
  nextUnit,
  unitStart,
  unitStarts,
} from './usage.js';
export type { UsageLimitName, UsageUnit } from './usage.js';
