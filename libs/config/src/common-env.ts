import { Type } from '@sinclair/typebox';

/** Variables every process reads; each app spreads these into its own schema. */
export const commonEnv = {
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  KAFKA_BROKERS: Type.String({ default: '127.0.0.1:9092', minLength: 1 }),
  KAFKA_TOPIC_PREFIX: Type.String({ default: '' }),
  /**
   * A Confluent-compatible schema registry API (Apicurio: `http://host:port/apis/ccompat/v7`): produced bodies
   * are then in the Confluent wire format. Unset: bare Avro, the schema named by the `ce_schema` header.
   */
  SCHEMA_REGISTRY_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  SCHEMA_REGISTRY_TIMEOUT_MS: Type.Integer({ default: 5000, minimum: 100, maximum: 120_000 }),
  MONGO_URL: Type.String({ default: 'mongodb://127.0.0.1:27017', pattern: '^mongodb(\\+srv)?://' }),
  MONGO_DB: Type.String({ default: 'platform', minLength: 1 }),
  REDIS_URL: Type.String({ default: 'redis://127.0.0.1:6379', pattern: '^rediss?://' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** The share of new traces recorded (parent-based: a trace that arrives keeps its sender's decision). */
  TRACE_SAMPLE_RATIO: Type.Number({ default: 0.05, minimum: 0, maximum: 1 }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ default: 15000, minimum: 0 }),
} as const;

export function csv(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Which proxies to believe for the client address (`X-Forwarded-For`): `false` (none, the default), a hop
 * count (`1` = the one load balancer in front: the address it saw is used, whatever the client sent), or a
 * comma-separated list of proxy addresses/CIDRs. `true` (every hop, leftmost address) is accepted but lets a
 * client choose its own address behind a proxy that appends to the header.
 */
export const trustProxyEnv = {
  TRUST_PROXY: Type.String({
    default: 'false',
    pattern: '^(true|false|[0-9]{1,2}|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$',
  }),
};

export function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return csv(value);
}

/** The Kafka settings of {@link commonEnv}, for libs/kafka `createKafka`. */
export function kafkaSettings(env: {
  KAFKA_BROKERS: string;
  KAFKA_TOPIC_PREFIX: string;
  SCHEMA_REGISTRY_URL?: string | undefined;
  SCHEMA_REGISTRY_TIMEOUT_MS?: number | undefined;
}) {
  return {
    brokers: env.KAFKA_BROKERS.split(',').map((broker) => broker.trim()),
    topicPrefix: env.KAFKA_TOPIC_PREFIX,
    schemaRegistry: env.SCHEMA_REGISTRY_URL
      ? { url: env.SCHEMA_REGISTRY_URL, timeoutMs: env.SCHEMA_REGISTRY_TIMEOUT_MS ?? 5000 }
      : undefined,
  };
}

/** Where traces go and how many are recorded (libs/telemetry `startTelemetry`). */
export function telemetrySettings(env: {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  TRACE_SAMPLE_RATIO: number;
}) {
  return { otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, traceSampleRatio: env.TRACE_SAMPLE_RATIO };
}

/** What every process derives from {@link commonEnv}. */
export function commonSettings(env: {
  LOG_LEVEL: string;
  KAFKA_BROKERS: string;
  KAFKA_TOPIC_PREFIX: string;
  SCHEMA_REGISTRY_URL?: string | undefined;
  SCHEMA_REGISTRY_TIMEOUT_MS?: number | undefined;
  MONGO_URL: string;
  MONGO_DB: string;
  REDIS_URL: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  TRACE_SAMPLE_RATIO: number;
  SHUTDOWN_TIMEOUT_MS: number;
}) {
  return {
    logLevel: env.LOG_LEVEL,
    kafka: kafkaSettings(env),
    mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
    redisUrl: env.REDIS_URL,
    ...telemetrySettings(env),
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
  };
}

/** Variables of a command worker (a Kafka consumer group with an outbox relay and probes). */
export function workerEnv(defaults: { partitionsConcurrency: number; outboxIntervalMs: number }) {
  return {
    /** Serves /healthz, /readyz and /metrics for probes; unset runs without (local processes). */
    HEALTH_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    HEALTH_HOST: Type.String({ default: '127.0.0.1' }),
    /** Partitions (so messages) handled at once by one process. */
    PARTITIONS_CONCURRENCY: Type.Integer({ default: defaults.partitionsConcurrency, minimum: 1, maximum: 64 }),
    /** The safety-net sweep for events a crash left unpublished; events normally go out right after their write. */
    OUTBOX_INTERVAL_MS: Type.Integer({ default: defaults.outboxIntervalMs, minimum: 50 }),
    /** How long a silent (crashed) member keeps its partitions before the group moves them. */
    KAFKA_SESSION_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 6000, maximum: 300_000 }),
  };
}

export function workerSettings(env: {
  HEALTH_PORT?: number | undefined;
  HEALTH_HOST: string;
  PARTITIONS_CONCURRENCY: number;
  OUTBOX_INTERVAL_MS: number;
  KAFKA_SESSION_TIMEOUT_MS: number;
}) {
  return {
    health: env.HEALTH_PORT === undefined ? undefined : { port: env.HEALTH_PORT, host: env.HEALTH_HOST },
    partitionsConcurrency: env.PARTITIONS_CONCURRENCY,
    outboxIntervalMs: env.OUTBOX_INTERVAL_MS,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
  };
}
