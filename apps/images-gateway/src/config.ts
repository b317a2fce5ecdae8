import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  Type,
  commonEnv,
  createConfigLoader,
  telemetrySettings,
  kafkaSettings,
  parseTrustProxy,
  trustProxyEnv,
} from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...trustProxyEnv,
  PORT: Type.Integer({ default: 3003, minimum: 1, maximum: 65535 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  /** The service's public address ({base_url}); `Location` headers are built from it. */
  PUBLIC_BASE_URL: Type.String({ default: 'http://127.0.0.1:3003', pattern: '^https?://[^/]+/?$' }),
  API_KEY_PEPPER: Type.String({ minLength: 16 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  /** Images can take seconds; a redone job after a worker crash also fits (above the Kafka session timeout). */
  COMMAND_TIMEOUT_MS: Type.Integer({ default: 90_000, minimum: 100, maximum: 600_000 }),
  /** Largest accepted upload; a larger body is refused with 413 before more is read. */
  UPLOAD_LIMIT_BYTES: Type.Integer({ default: 32 * 1024 * 1024, minimum: 1024 }),
  IMAGE_RETENTION_SECONDS: Type.Integer({ default: 86_400, minimum: 60 }),
  /** Must equal the workers' value: the gateway refuses early, the worker enforces it atomically. */
  IMAGE_MONTHLY_QUOTA: Type.Integer({ default: 0, minimum: 0 }),
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
});

export const config = createConfigLoader(schema, (env) => ({
  env: env.NODE_ENV,
  logLevel: env.LOG_LEVEL,
  http: { port: env.PORT, host: env.HOST, trustProxy: parseTrustProxy(env.TRUST_PROXY) },
  publicBaseUrl: env.PUBLIC_BASE_URL.replace(/\/$/, ''),
  kafka: kafkaSettings(env),
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  ...telemetrySettings(env),
  apiKeyPepper: env.API_KEY_PEPPER,
  sealingKey: env.SECRETS_SEALING_KEY,
  commandTimeoutMs: env.COMMAND_TIMEOUT_MS,
  uploadLimitBytes: env.UPLOAD_LIMIT_BYTES,
  retentionSeconds: env.IMAGE_RETENTION_SECONDS,
  monthlyQuota: env.IMAGE_MONTHLY_QUOTA,
  replicaId: env.REPLICA_ID ?? `images-gateway-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
}));
