import { commonEnv, commonSettings, createConfigLoader, Type, workerEnv, workerSettings } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...workerEnv({ partitionsConcurrency: 12, outboxIntervalMs: 5_000 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: Type.Integer({ default: 30 * 86_400, minimum: 60 }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  sealingKey: env.SECRETS_SEALING_KEY,
  refreshTokenTtlSeconds: env.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
  ...workerSettings(env),
}));
