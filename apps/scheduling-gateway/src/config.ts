import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  Type,
  commonEnv,
  createConfigLoader,
  telemetrySettings,
  kafkaSettings,
  csv,
  parseTrustProxy,
  trustProxyEnv,
} from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  PORT: Type.Integer({ default: 3001, minimum: 1, maximum: 65535 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  /** {base_url}: the issuer identifier and the base of every endpoint in the metadata. */
  PUBLIC_BASE_URL: Type.String({ default: 'http://127.0.0.1:3001', pattern: '^https?://[^/]+$' }),
  /** {app_url}: where the authorization page lives. */
  WEB_PUBLIC_URL: Type.String({ default: 'http://127.0.0.1:3000', pattern: '^https?://[^/]+$' }),
  /** Access-token HMAC keys, comma-separated; the first signs, all verify (rotation). */
  OAUTH_ACCESS_TOKEN_KEYS: Type.String({ minLength: 32 }),
  /** Pepper of the keyed hash of client secrets, codes and refresh tokens. */
  OAUTH_SECRET_PEPPER: Type.String({ minLength: 32 }),
  COMMAND_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100, maximum: 120_000 }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 16_384, minimum: 1024 }),
  /** Failed client authentications or grants per client IP, then per client_id, per window: then 429. */
  TOKEN_FAILURES_PER_IP: Type.Integer({ default: 20, minimum: 1 }),
  TOKEN_FAILURES_PER_CLIENT: Type.Integer({ default: 100, minimum: 1 }),
  TOKEN_FAILURE_WINDOW_SECONDS: Type.Integer({ default: 300, minimum: 1 }),
  /** Put in front of the failure counters' Redis keys: several deployments (or test suites) sharing one Redis. */
  REDIS_KEY_PREFIX: Type.String({ default: '', pattern: '^[A-Za-z0-9._:-]{0,64}$' }),
  ...trustProxyEnv,
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
});

export const config = createConfigLoader(schema, (env) => ({
  logLevel: env.LOG_LEVEL,
  http: {
    port: env.PORT,
    host: env.HOST,
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  },
  kafka: kafkaSettings(env),
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  ...telemetrySettings(env),
  issuer: env.PUBLIC_BASE_URL,
  webUrl: env.WEB_PUBLIC_URL,
  accessTokenKeys: csv(env.OAUTH_ACCESS_TOKEN_KEYS),
  secretPepper: env.OAUTH_SECRET_PEPPER,
  commandTimeoutMs: env.COMMAND_TIMEOUT_MS,
  failureLimits: {
    perIp: env.TOKEN_FAILURES_PER_IP,
    perClient: env.TOKEN_FAILURES_PER_CLIENT,
    windowSeconds: env.TOKEN_FAILURE_WINDOW_SECONDS,
  },
  redisKeyPrefix: env.REDIS_KEY_PREFIX,
  replicaId: env.REPLICA_ID ?? `scheduling-gateway-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
}));

export type GatewayConfig = ReturnType<typeof config.get>;
