import { Type, commonEnv, createConfigLoader, telemetrySettings, kafkaSettings, csv } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  /** CIDRs or addresses that webhooks may reach although private (tests, on-premise receivers). */
  EGRESS_ALLOW: Type.String({ default: '' }),
  WEBHOOK_TIMEOUT_MS: Type.Integer({ default: 15_000, minimum: 100, maximum: 120_000 }),
  WEBHOOK_CONCURRENCY: Type.Integer({ default: 64, minimum: 1, maximum: 1024 }),
  WEBHOOK_PER_TARGET_CONCURRENCY: Type.Integer({ default: 4, minimum: 1, maximum: 64 }),
  /** Deliveries per second to one target at most (0: no limit); those over it wait, none is dropped. */
  WEBHOOK_PER_TARGET_RATE: Type.Number({ default: 0, minimum: 0, maximum: 10_000 }),
  /** Compresses the retry schedule (1 = real time); tests use a small value. */
  WEBHOOK_RETRY_SCALE: Type.Number({ default: 1, exclusiveMinimum: 0, maximum: 1 }),
  /** Comma-separated delays before each attempt, in ms; unset keeps the default (about a day in all). */
  WEBHOOK_RETRY_SCHEDULE_MS: Type.Optional(Type.String({ pattern: '^\\d+(,\\d+)*$' })),
  WEBHOOK_POLL_INTERVAL_MS: Type.Integer({ default: 500, minimum: 10, maximum: 60_000 }),
  /** How often the lease queue in Redis is rebuilt from the store's pending deliveries (a safety net; ADR 0003). */
  WEBHOOK_RECONCILE_INTERVAL_MS: Type.Integer({ default: 60_000, minimum: 1000, maximum: 3600_000 }),
  KAFKA_SESSION_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 6000, maximum: 300_000 }),
  /** A target failing (no success) for this long is disabled; default 5 days. */
  WEBHOOK_DISABLE_AFTER_MS: Type.Integer({ default: 5 * 24 * 3600_000, minimum: 1000 }),
  /** Extra lease beyond the request timeouts before another replica may retry a claimed delivery. */
  WEBHOOK_LEASE_GRACE_MS: Type.Integer({ default: 30_000, minimum: 100 }),
  HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  HEALTH_HOST: Type.String({ default: '127.0.0.1' }),
});

export const config = createConfigLoader(schema, (env) => ({
  logLevel: env.LOG_LEVEL,
  kafka: kafkaSettings(env),
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  ...telemetrySettings(env),
  sealingKey: env.SECRETS_SEALING_KEY,
  egressAllow: csv(env.EGRESS_ALLOW),
  delivery: {
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    concurrency: env.WEBHOOK_CONCURRENCY,
    perTargetConcurrency: env.WEBHOOK_PER_TARGET_CONCURRENCY,
    perTargetRate: env.WEBHOOK_PER_TARGET_RATE,
    retryScale: env.WEBHOOK_RETRY_SCALE,
    pollIntervalMs: env.WEBHOOK_POLL_INTERVAL_MS,
    reconcileIntervalMs: env.WEBHOOK_RECONCILE_INTERVAL_MS,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    disableAfterMs: env.WEBHOOK_DISABLE_AFTER_MS,
    leaseGraceMs: env.WEBHOOK_LEASE_GRACE_MS,
    // The part of the shutdown left to recording the attempts under way; the rest (at most 5 s) relays their
    // events and closes the connections before the runtime's own deadline.
    drainTimeoutMs: env.SHUTDOWN_TIMEOUT_MS - Math.min(5000, Math.round(env.SHUTDOWN_TIMEOUT_MS / 3)),
    ...(env.WEBHOOK_RETRY_SCHEDULE_MS ? { retrySchedule: csv(env.WEBHOOK_RETRY_SCHEDULE_MS).map(Number) } : {}),
  },
  health: env.HEALTH_PORT === undefined ? undefined : { port: env.HEALTH_PORT, host: env.HEALTH_HOST },
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
}));
