import { Type, commonEnv, createConfigLoader, kafkaSettings } from '@platform/config';

const schema = Type.Object({
  MONGO_URL: commonEnv.MONGO_URL,
  MONGO_DB: commonEnv.MONGO_DB,
  REDIS_URL: commonEnv.REDIS_URL,
  KAFKA_BROKERS: commonEnv.KAFKA_BROKERS,
  KAFKA_TOPIC_PREFIX: commonEnv.KAFKA_TOPIC_PREFIX,
  SCHEMA_REGISTRY_URL: commonEnv.SCHEMA_REGISTRY_URL,
  SCHEMA_REGISTRY_TIMEOUT_MS: commonEnv.SCHEMA_REGISTRY_TIMEOUT_MS,
  API_KEY_PEPPER: Type.String({ minLength: 16 }),
});

export const config = createConfigLoader(schema, (env) => ({
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  // As the services are: with SCHEMA_REGISTRY_URL, what the CLI publishes is in the registry's wire format.
  kafka: kafkaSettings(env),
  apiKeyPepper: env.API_KEY_PEPPER,
}));
