import { commonEnv, commonSettings, createConfigLoader, Type, workerEnv, workerSettings } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...workerEnv({ partitionsConcurrency: 12, outboxIntervalMs: 5_000 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  SMTP_URL: Type.String({ default: 'smtp://127.0.0.1:1025', pattern: '^smtps?://' }),
  SMTP_FROM: Type.String({ default: 'Scheduling <no-reply@scheduling.localhost>', minLength: 3 }),
  SMTP_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100 }),
  /** The web app's public address, for links in e-mails. */
  WEB_PUBLIC_URL: Type.String({ default: 'http://127.0.0.1:3000', pattern: '^https?://' }),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: Type.Integer({ default: 30 * 86_400, minimum: 60 }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  sealingKey: env.SECRETS_SEALING_KEY,
  mail: {
    smtpUrl: env.SMTP_URL,
    from: env.SMTP_FROM,
    timeoutMs: env.SMTP_TIMEOUT_MS,
    settingsUrl: new URL('/settings/developer/oauth', env.WEB_PUBLIC_URL).toString(),
  },
  refreshTokenTtlSeconds: env.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
  ...workerSettings(env),
}));
