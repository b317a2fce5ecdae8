import { Type, commonEnv, createConfigLoader } from '@platform/config';

const schema = Type.Object({
  MONGO_URL: commonEnv.MONGO_URL,
  MONGO_DB: commonEnv.MONGO_DB,
  REDIS_URL: commonEnv.REDIS_URL,
  KAFKA_BROKERS: commonEnv.KAFKA_BROKERS,
  KAFKA_TOPIC_PREFIX: commonEnv.KAFKA_TOPIC_PREFIX,
  API_KEY_PEPPER: Type.String({ minLength: 16 }),
});

export const config = createConfigLoader(schema, (env) => ({
  mongo: { url: env.MONGO_URL, db: env.MONGO_DB },
  redisUrl: env.REDIS_URL,
  kafka: { brokers: env.KAFKA_BROKERS.split(',').map((b) => b.trim()), topicPrefix: env.KAFKA_TOPIC_PREFIX },
  apiKeyPepper: env.API_KEY_PEPPER,
}));
