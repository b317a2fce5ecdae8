import { Type, commonEnv, createConfigLoader } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  /** Serves /healthz and /readyz for probes; unset runs without (local processes). */
  HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  HEALTH_HOST: Type.String({ default: '127.0.0.1' }),
  PARTITIONS_CONCURRENCY: Type.Integer({ default: 4, minimum: 1, maximum: 64 }),
  OUTBOX_INTERVAL_MS: Type.Integer({ default: 1000, minimum: 50 }),
  /** How long a silent (crashed) member keeps its partitions before the group moves them. */
  KAFKA_SESSION_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 6000, maximum: 300_000 }),
});

export const config = createConfigLoader(schema, (env) => ({
  logLevel: env.LOG_LEVEL,
  kafka: { brokers: env.KAFKA_BROKERS.split(','), topicPrefix: env.KAFKA_TOPIC_PREFIX },
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
  sealingKey: env.SECRETS_SEALING_KEY,
  health: env.HEALTH_PORT === undefined ? undefined : { port: env.HEALTH_PORT, host: env.HEALTH_HOST },
  partitionsConcurrency: env.PARTITIONS_CONCURRENCY,
  outboxIntervalMs: env.OUTBOX_INTERVAL_MS,
  sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
}));
