import { commonEnv, commonSettings, createConfigLoader, Type, workerEnv, workerSettings } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...workerEnv({ partitionsConcurrency: 12, outboxIntervalMs: 1_000 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  sealingKey: env.SECRETS_SEALING_KEY,
  ...workerSettings(env),
}));

export type LinksWorkerConfig = ReturnType<typeof config.get>;
