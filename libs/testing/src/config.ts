import { Type, commonEnv, createConfigLoader } from '@platform/config';

/** Where the test suites find the real dependencies (deploy/local defaults; set by the global setup). */
export const testingConfig = createConfigLoader(
  Type.Object({
    KAFKA_BROKERS: commonEnv.KAFKA_BROKERS,
    /**
     * The broker's second client listener, which advertises KAFKA_PROXY_ADDRESS: a test that listens there and
     * forwards to KAFKA_PROXIED_LISTENER stands between its clients and the broker (deploy/local/env.sh).
     */
    KAFKA_PROXY_ADDRESS: Type.String({ default: '127.0.0.1:9095', pattern: '^[^:]+:\\d+$' }),
    KAFKA_PROXIED_LISTENER: Type.String({ default: '127.0.0.1:9094', pattern: '^[^:]+:\\d+$' }),
    MONGO_URL: commonEnv.MONGO_URL,
    REDIS_URL: commonEnv.REDIS_URL,
    SMTP_URL: Type.String({ default: 'smtp://127.0.0.1:1025', pattern: '^smtps?://' }),
    MAILBOX_URL: Type.String({ default: 'http://127.0.0.1:8025', pattern: '^https?://' }),
    /** S3-compatible server (deploy/local: S3Proxy) and its one access key. */
    S3_URL: Type.String({ default: 'http://127.0.0.1:9000', pattern: '^https?://' }),
    S3_ACCESS_KEY_ID: Type.String({ default: 'AKIALOCALPLATFORM01' }),
    S3_SECRET_ACCESS_KEY: Type.String({ default: 'local-platform-s3-secret-key' }),
    /** GCS-compatible server (deploy/local: fake-gcs-server). */
    GCS_URL: Type.String({ default: 'http://127.0.0.1:4443', pattern: '^https?://' }),
    /** The PostgreSQL database behind the local FerretDB (deploy/local/env.sh), for tests that read query plans. */
    FERRETDB_POSTGRES_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
    /** `local` forces the deploy/local processes even where a Docker engine exists. */
    PLATFORM_TEST_INFRA: Type.Optional(Type.Union([Type.Literal('local'), Type.Literal('containers')])),
  }),
  (env) => ({
    kafkaBrokers: env.KAFKA_BROKERS,
    kafkaProxy: { address: env.KAFKA_PROXY_ADDRESS, upstream: env.KAFKA_PROXIED_LISTENER },
    mongoUrl: env.MONGO_URL,
    redisUrl: env.REDIS_URL,
    smtpUrl: env.SMTP_URL,
    mailboxUrl: env.MAILBOX_URL,
    s3: { url: env.S3_URL, accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
    gcsUrl: env.GCS_URL,
    storePostgresUrl: env.FERRETDB_POSTGRES_URL,
    forceLocal: env.PLATFORM_TEST_INFRA === 'local',
  }),
);

/**
 * The test run a process belongs to (`PLATFORM_TEST_RUN`, six hex digits, set by the runner's global setup and
 * inherited by its workers): `uniqueName` ends every name with it, so that the run can remove what it made.
 */
export const testRunConfig = createConfigLoader(
  Type.Object({ PLATFORM_TEST_RUN: Type.Optional(Type.String({ pattern: '^[0-9a-f]{6}$' })) }),
  (env) => ({ run: env.PLATFORM_TEST_RUN }),
);

/**
 * The vitest worker a process is (`VITEST_POOL_ID`, 1..maxWorkers, set by vitest in each worker): `freePort` draws
 * from that worker's own slice of the port range. Unset outside vitest.
 */
export const testWorkerConfig = createConfigLoader(
  Type.Object({ VITEST_POOL_ID: Type.Optional(Type.Integer({ minimum: 1 })) }),
  (env) => ({ pool: env.VITEST_POOL_ID }),
);
