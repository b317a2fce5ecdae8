import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Type, commonEnv, createConfigLoader, telemetrySettings, kafkaSettings } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  PORT: Type.Integer({ default: 3002, minimum: 1, maximum: 65535 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  API_KEY_PEPPER: Type.String({ minLength: 16 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  COMMAND_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100, maximum: 120_000 }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 1_048_576, minimum: 1024 }),
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
});

export const config = createConfigLoader(schema, (env) => ({
  env: env.NODE_ENV,
  logLevel: env.LOG_LEVEL,
  http: { port: env.PORT, host: env.HOST, bodyLimit: env.BODY_LIMIT_BYTES },
  kafka: kafkaSettings(env),
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  ...telemetrySettings(env),
  apiKeyPepper: env.API_KEY_PEPPER,
  sealingKey: env.SECRETS_SEALING_KEY,
  commandTimeoutMs: env.COMMAND_TIMEOUT_MS,
  replicaId: env.REPLICA_ID ?? `usermgmt-gateway-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
  shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
}));

export type GatewayConfig = ReturnType<typeof config.get>;
