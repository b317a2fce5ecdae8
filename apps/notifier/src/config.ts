import { hostname } from 'node:os';
import {
  ConfigError,
  commonEnv,
  commonSettings,
  createConfigLoader,
  csv,
  Type,
  workerEnv,
  workerSettings,
} from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...workerEnv({ partitionsConcurrency: 12, outboxIntervalMs: 1_000 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  API_KEY_PEPPER: Type.String({ minLength: 16 }),
  /** The methods every notification goes out by besides the inbox (the first is the default): smtp, webhook. */
  NOTIFIER_METHODS: Type.String({ default: 'smtp', pattern: '^\\s*(smtp|webhook)\\s*(,\\s*(smtp|webhook)\\s*)*$' }),
  SMTP_URL: Type.String({ default: 'smtp://127.0.0.1:1025', pattern: '^smtps?://' }),
  SMTP_FROM: Type.String({ default: 'Platform notifications <no-reply@notifications.localhost>', minLength: 3 }),
  SMTP_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100 }),
  /** Where the webhook method POSTs (signed with Standard Webhooks headers by the webhook dispatcher). */
  NOTIFIER_WEBHOOK_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  NOTIFIER_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  /** Deliveries per second at most to NOTIFIER_WEBHOOK_URL (the dispatcher holds the rest back); unset: none. */
  NOTIFIER_WEBHOOK_RATE_LIMIT: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  /** One user's notifications reach NOTIFIER_WEBHOOK_URL in the order they were sent (the user id orders them). */
  NOTIFIER_WEBHOOK_ORDERED: Type.Boolean({ default: false }),
  /** Tries of one method of one notification before it is given up (failed). */
  NOTIFIER_MAX_ATTEMPTS: Type.Integer({ default: 6, minimum: 1, maximum: 50 }),
  NOTIFIER_RETRY_BASE_MS: Type.Integer({ default: 1_000, minimum: 10 }),
  /** How often due work is looked for (retries, lanes a crashed process held, resumed deployments). */
  NOTIFIER_SWEEP_MS: Type.Integer({ default: 1_000, minimum: 50 }),
  /** How long a process owns a user's lane without renewing it; bounds the delay after a crash. */
  NOTIFIER_LEASE_MS: Type.Integer({ default: 15_000, minimum: 500 }),
  /** Stable across restarts (a pod name), so a restarted process takes its lanes back at once. */
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
  /** The scheduling web app, for links to OAuth clients. */
  WEB_PUBLIC_URL: Type.String({ default: 'http://127.0.0.1:3000', pattern: '^https?://' }),
  /** The share of an image account's monthly quota that, once crossed, notifies the account. */
  IMAGE_QUOTA_NOTIFY_PERCENT: Type.Integer({ default: 80, minimum: 1, maximum: 100 }),
});

export const config = createConfigLoader(schema, (env) => {
  const methods = [...new Set(csv(env.NOTIFIER_METHODS))] as Array<'smtp' | 'webhook'>;
  if (methods.includes('webhook') && !(env.NOTIFIER_WEBHOOK_URL && env.NOTIFIER_WEBHOOK_SECRET)) {
    throw new ConfigError([
      'NOTIFIER_WEBHOOK_URL and NOTIFIER_WEBHOOK_SECRET are required when NOTIFIER_METHODS includes webhook',
    ]);
  }
  return {
    ...commonSettings(env),
    sealingKey: env.SECRETS_SEALING_KEY,
    apiKeyPepper: env.API_KEY_PEPPER,
    methods,
    mail: { smtpUrl: env.SMTP_URL, from: env.SMTP_FROM, timeoutMs: env.SMTP_TIMEOUT_MS },
    webhook:
      env.NOTIFIER_WEBHOOK_URL && env.NOTIFIER_WEBHOOK_SECRET
        ? {
            url: env.NOTIFIER_WEBHOOK_URL,
            secret: env.NOTIFIER_WEBHOOK_SECRET,
            rateLimit: env.NOTIFIER_WEBHOOK_RATE_LIMIT ?? null,
            ordered: env.NOTIFIER_WEBHOOK_ORDERED,
          }
        : null,
    dispatch: {
      maxAttempts: env.NOTIFIER_MAX_ATTEMPTS,
      retryBaseMs: env.NOTIFIER_RETRY_BASE_MS,
      sweepMs: env.NOTIFIER_SWEEP_MS,
      leaseMs: env.NOTIFIER_LEASE_MS,
      holder: env.REPLICA_ID ?? `notifier-${hostname()}-${process.pid}`,
    },
    webPublicUrl: env.WEB_PUBLIC_URL,
    imageQuotaNotifyPercent: env.IMAGE_QUOTA_NOTIFY_PERCENT,
    ...workerSettings(env),
  };
});

export type NotifierConfig = ReturnType<typeof config.get>;
