export {
  UNITS,
  addUnits,
  bucketLength,
  bucketSeries,
  bucketStart,
  bucketsBetween,
  formatTime,
  isUnit,
  isoTimestampPattern,
  parseIsoTimestamp,
} from './buckets.js';
export type { Unit } from './buckets.js';
export { ENGAGEMENT_KINDS, engagementOfClick, shortenOfCreated } from './events.js';
export type { AnalyticsEvent, Engagement, EngagementKind, Shorten } from './events.js';
export { FACETS, createFacetReader, decodeKey, encodeKey } from './facets.js';
export type { EngagementFacets, Facet, FacetReader } from './facets.js';
export { openGeoDatabase } from './geo.js';
export type { GeoLookup, Place } from './geo.js';
export { readReferrer } from './referrer.js';
export type { ReferrerFacets } from './referrer.js';
export { readUserAgent } from './user-agent.js';
export type { ClientSoftware, DeviceType } from './user-agent.js';
export {
  DEFAULT_RETENTION,
  bucketId,
  childCounters,
  createPlanner,
  deltaAfter,
  inOffsetOrder,
  planBatch,
} from './plan.js';
export type {
  BatchPlan,
  PlanOptions,
  PlannedBucket,
  PlannedEvent,
  Planner,
  Retention,
  Scope,
  ScopeKind,
} from './plan.js';
export { DEFAULT_SIZE, MAX_SIZE, MAX_UNITS, queryBuckets, readMetricsQuery } from './query.js';
export type { MetricsQuery, QueryProblem } from './query.js';
export { coverRange, createReports } from './reports.js';
export type { Ranked, Reports, SeriesCounter, Since } from './reports.js';
export { LATE_MS, createAnalyticsStore } from './read-store.js';
export type { AnalyticsStore, AnalyticsStoreOptions } from './read-store.js';
export { createAnalyticsWriter } from './store.js';
export { EventIdSet, createEventIdReader, createRedisSightings } from './sightings.js';
export type { EventId, Sightings } from './sightings.js';
export type { AnalyticsWriter, BucketDoc } from './store.js';
