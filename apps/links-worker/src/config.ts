import { commonEnv, commonSettings, createConfigLoader, Type, workerEnv, workerSettings } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...workerEnv({ partitionsConcurrency: 12, outboxIntervalMs: 1_000 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  /** The links API's public address ({base_url}), for the `references` of webhook payloads. */
  PUBLIC_BASE_URL: Type.String({ default: 'http://127.0.0.1:3005', pattern: '^https?://' }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  sealingKey: env.SECRETS_SEALING_KEY,
  publicBaseUrl: env.PUBLIC_BASE_URL.replace(/\/+$/, ''),
  ...workerSettings(env),
}));

export type LinksWorkerConfig = ReturnType<typeof config.get>;
