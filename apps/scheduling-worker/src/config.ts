import { Type, commonEnv, createConfigLoader } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  /** The web app's public address: team invite links point there. */
  WEB_PUBLIC_URL: Type.String({ default: 'http://127.0.0.1:3000', pattern: '^https?://' }),
  TEAM_INVITE_TTL_SECONDS: Type.Integer({ default: 7 * 86_400, minimum: 60 }),
  HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  HEALTH_HOST: Type.String({ default: '127.0.0.1' }),
  PARTITIONS_CONCURRENCY: Type.Integer({ default: 4, minimum: 1, maximum: 64 }),
  /** The safety-net sweep for events a crash left unpublished; events normally go out right after their write. */
  OUTBOX_INTERVAL_MS: Type.Integer({ default: 5000, minimum: 50 }),
  KAFKA_SESSION_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 6000, maximum: 300_000 }),
});

export const config = createConfigLoader(schema, (env) => ({
  logLevel: env.LOG_LEVEL,
  kafka: { brokers: env.KAFKA_BROKERS.split(','), topicPrefix: env.KAFKA_TOPIC_PREFIX },
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
  sealingKey: env.SECRETS_SEALING_KEY,
  webUrl: env.WEB_PUBLIC_URL.replace(/\/$/, ''),
  inviteTtlSeconds: env.TEAM_INVITE_TTL_SECONDS,
  health: env.HEALTH_PORT === undefined ? undefined : { port: env.HEALTH_PORT, host: env.HEALTH_HOST },
  partitionsConcurrency: env.PARTITIONS_CONCURRENCY,
  outboxIntervalMs: env.OUTBOX_INTERVAL_MS,
  sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
}));
