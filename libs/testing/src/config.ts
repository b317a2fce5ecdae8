import { Type, commonEnv, createConfigLoader } from '@platform/config';

/** Where the test suites find the real dependencies (deploy/local defaults; set by the global setup). */
export const testingConfig = createConfigLoader(
  Type.Object({
    KAFKA_BROKERS: commonEnv.KAFKA_BROKERS,
    MONGO_URL: commonEnv.MONGO_URL,
    REDIS_URL: commonEnv.REDIS_URL,
    SMTP_URL: Type.String({ default: 'smtp://127.0.0.1:1025', pattern: '^smtps?://' }),
    MAILBOX_URL: Type.String({ default: 'http://127.0.0.1:8025', pattern: '^https?://' }),
    /** `local` forces the deploy/local processes even where a Docker engine exists. */
    PLATFORM_TEST_INFRA: Type.Optional(Type.Union([Type.Literal('local'), Type.Literal('containers')])),
  }),
  (env) => ({
    kafkaBrokers: env.KAFKA_BROKERS,
    mongoUrl: env.MONGO_URL,
    redisUrl: env.REDIS_URL,
    smtpUrl: env.SMTP_URL,
    mailboxUrl: env.MAILBOX_URL,
    forceLocal: env.PLATFORM_TEST_INFRA === 'local',
  }),
);
