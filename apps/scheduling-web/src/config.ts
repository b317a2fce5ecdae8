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
import { MAX_CODE_TTL_SECONDS } from '@platform/oauth';

const schema = Type.Object({
  ...commonEnv,
  PORT: Type.Integer({ default: 3000, minimum: 1, maximum: 65535 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  /** {app_url}: the origin form posts must come from; cookies are `Secure` when it is https. */
  PUBLIC_URL: Type.String({ default: 'http://127.0.0.1:3000', pattern: '^https?://[^/]+/?$' }),
  /** The issuer identifier (the gateway, {base_url}), added as `iss` to authorization responses (RFC 9207). */
  OAUTH_ISSUER: Type.String({ default: 'http://127.0.0.1:3001', pattern: '^https?://' }),
  /** Signs the session and login-CSRF cookies. */
  SESSION_SECRET: Type.String({ minLength: 32 }),
  /** Pepper of the keyed hash of client secrets and authorization codes (the same as the worker's and gateway's). */
  OAUTH_SECRET_PEPPER: Type.String({ minLength: 32 }),
  OAUTH_CODE_TTL_SECONDS: Type.Integer({ default: 120, minimum: 10, maximum: MAX_CODE_TTL_SECONDS }),
  SESSION_TTL_SECONDS: Type.Integer({ default: 28_800, minimum: 60 }),
  /** Failed logins allowed per client IP and per e-mail address in LOGIN_FAILURE_WINDOW_SECONDS. */
  LOGIN_FAILURES_PER_IP: Type.Integer({ default: 50, minimum: 1 }),
  LOGIN_FAILURES_PER_EMAIL: Type.Integer({ default: 10, minimum: 1 }),
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({ default: 900, minimum: 1 }),
  COMMAND_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100, maximum: 120_000 }),
  ...trustProxyEnv,
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
});

export const config = createConfigLoader(schema, (env) => ({
  logLevel: env.LOG_LEVEL,
  http: { port: env.PORT, host: env.HOST, trustProxy: parseTrustProxy(env.TRUST_PROXY) },
  kafka: kafkaSettings(env),
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  ...telemetrySettings(env),
  publicUrl: new URL(env.PUBLIC_URL).origin,
  issuer: env.OAUTH_ISSUER,
  sessionSecret: env.SESSION_SECRET,
  secretPepper: env.OAUTH_SECRET_PEPPER,
  codeTtlSeconds: env.OAUTH_CODE_TTL_SECONDS,
  sessionTtlSeconds: env.SESSION_TTL_SECONDS,
  commandTimeoutMs: env.COMMAND_TIMEOUT_MS,
  loginLimits: {
    perIp: env.LOGIN_FAILURES_PER_IP,
    perEmail: env.LOGIN_FAILURES_PER_EMAIL,
    windowSeconds: env.LOGIN_FAILURE_WINDOW_SECONDS,
  },
  replicaId: env.REPLICA_ID ?? `scheduling-web-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
}));

export type WebConfig = ReturnType<typeof config.get>;
