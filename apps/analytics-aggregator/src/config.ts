import { Type, commonEnv, commonSettings, createConfigLoader, workerEnv, workerSettings } from '@platform/config';

const HOUR = 3600_000;

const schema = Type.Object({
  ...commonEnv,
  // Every partition of links.clicks at once: a held batch costs only its planning, and bucket writes overlap.
  ...workerEnv({ partitionsConcurrency: 12, outboxIntervalMs: 1_000 }),
  /** Count bots' redirects like people's (by default they are only counted apart, `n.bots`). */
  ANALYTICS_COUNT_BOTS: Type.Union([Type.Literal('true'), Type.Literal('false')], { default: 'false' }),
  /** How long minute buckets are kept after their start. */
  ANALYTICS_MINUTE_RETENTION_HOURS: Type.Integer({ default: 48, minimum: 1, maximum: 24 * 31 }),
  /** How long hour buckets are kept after their start; day, week and month buckets are kept for good. */
  ANALYTICS_HOUR_RETENTION_DAYS: Type.Integer({ default: 400, minimum: 1, maximum: 3660 }),
  /** How long a counted event id is remembered (Redis), to drop a producer's repeat of it. */
  ANALYTICS_DEDUPE_WINDOW_HOURS: Type.Integer({ default: 48, minimum: 1, maximum: 24 * 31 }),
  /**
   * The most events of a partition folded into one set of bucket writes: a partition with more waiting has its
   * fetches planned and held until it has caught up or this many are planned.
   */
  ANALYTICS_MAX_BATCH: Type.Integer({ default: 100_000, minimum: 1, maximum: 1_000_000 }),
  /**
   * How much one fetch takes from a partition. Small: kafkajs decodes a whole fetch before handing over its first
   * batch, and records that outlive the young generation's collections cost the collector a copy each.
   */
  ANALYTICS_FETCH_BYTES: Type.Integer({ default: 256 * 1024, minimum: 64 * 1024, maximum: 64 * 1024 * 1024 }),
  /** How much one fetch takes from all partitions together (default: four partitions' worth). */
  ANALYTICS_FETCH_MAX_BYTES: Type.Optional(Type.Integer({ minimum: 64 * 1024, maximum: 256 * 1024 * 1024 })),
  /** A folder with the GeoLite2 city MMDB files, instead of the ones shipped in the npm package. */
  GEOIP_DIR: Type.Optional(Type.String({ minLength: 1 })),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  ...workerSettings(env),
  countBots: env.ANALYTICS_COUNT_BOTS === 'true',
  retention: {
    minute: env.ANALYTICS_MINUTE_RETENTION_HOURS * HOUR,
    hour: env.ANALYTICS_HOUR_RETENTION_DAYS * 24 * HOUR,
    day: null,
    week: null,
    month: null,
  },
  dedupeWindowMs: env.ANALYTICS_DEDUPE_WINDOW_HOURS * HOUR,
  maxBatch: env.ANALYTICS_MAX_BATCH,
  fetchBytes: env.ANALYTICS_FETCH_BYTES,
  fetchMaxBytes: env.ANALYTICS_FETCH_MAX_BYTES ?? 4 * env.ANALYTICS_FETCH_BYTES,
  geoipDir: env.GEOIP_DIR,
}));

export type AggregatorConfig = ReturnType<typeof config.get>;
