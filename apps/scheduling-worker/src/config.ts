import { commonEnv, commonSettings, createConfigLoader, Type, workerEnv, workerSettings } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...workerEnv({ partitionsConcurrency: 4, outboxIntervalMs: 5_000 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  /** The web app's public address: team invite links point there. */
  WEB_PUBLIC_URL: Type.String({ default: 'http://127.0.0.1:3000', pattern: '^https?://' }),
  TEAM_INVITE_TTL_SECONDS: Type.Integer({ default: 7 * 86_400, minimum: 60 }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  sealingKey: env.SECRETS_SEALING_KEY,
  webUrl: env.WEB_PUBLIC_URL.replace(/\/$/, ''),
  inviteTtlSeconds: env.TEAM_INVITE_TTL_SECONDS,
  ...workerSettings(env),
}));
