import { execFileSync } from 'node:child_process';
import { testingConfig } from './config.js';

export interface Infra {
  kafkaBrokers: string;
  /**
   * A client bootstrapped at `address` is told the broker is there: a proxy listening on it and forwarding to
   * `upstream` (the broker's PROXIED listener) carries all of that client's traffic, and can be cut.
   */
  kafkaProxy: { address: string; upstream: string };
  mongoUrl: string;
  redisUrl: string;
  smtpUrl: string;
  mailboxUrl: string;
  /** S3-compatible server and the access key it accepts. */
  s3: { url: string; accessKeyId: string; secretAccessKey: string };
  gcsUrl: string;
  /** PostgreSQL behind the local FerretDB, when that is the store (absent with containers or SQLite). */
  storePostgresUrl?: string | undefined;
  /** Stops what this harness started (containers); local processes are left to deploy/local. */
  stop(): Promise<void>;
}

function fromEnv(): Omit<Infra, 'stop'> {
  const { forceLocal: _forceLocal, ...endpoints } = testingConfig.get();
  return endpoints;
}

/** The endpoints tests use, as the global setup published them (or the deploy/local defaults). */
export function resolveInfra(): Omit<Infra, 'stop'> {
  return fromEnv();
}

function dockerAvailable(): boolean {
  if (testingConfig.get().forceLocal) return false;
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * One harness for every suite: with a Docker engine, testcontainers starts Kafka, MongoDB, Redis and an
 * SMTP sink; without one (these machines), the processes that deploy/local started are used as they are.
 */
export async function startInfra(): Promise<Infra> {
  if (!dockerAvailable()) return { ...fromEnv(), stop: async () => undefined };
  const { GenericContainer, Wait } = await import('testcontainers');
  const s3Key = { accessKeyId: 'AKIALOCALPLATFORM01', secretAccessKey: 'local-platform-s3-secret-key' };
  const [kafka, mongo, redis, mail, s3, gcs] = await Promise.all([
    new GenericContainer('apache/kafka:3.9.1')
      .withExposedPorts({ container: 9092, host: 19092 }, { container: 9094, host: 19094 })
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093,PROXIED://:9094',
        KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://127.0.0.1:19092,PROXIED://127.0.0.1:19095',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,PROXIED:PLAINTEXT',
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start(),
    new GenericContainer('mongo:7').withExposedPorts(27017).start(),
    new GenericContainer('redis:7').withExposedPorts(6379).start(),
    new GenericContainer('axllent/mailpit:latest').withExposedPorts(1025, 8025).start(),
    new GenericContainer('andrewgaul/s3proxy:latest')
      .withEnvironment({
        S3PROXY_AUTHORIZATION: 'aws-v2-or-v4',
        S3PROXY_IDENTITY: s3Key.accessKeyId,
        S3PROXY_CREDENTIAL: s3Key.secretAccessKey,
      })
      .withExposedPorts(80)
      .start(),
    new GenericContainer('fsouza/fake-gcs-server:latest')
      .withCommand(['-scheme', 'http', '-port', '4443'])
      .withExposedPorts(4443)
      .start(),
  ]);
  return {
    kafkaBrokers: '127.0.0.1:19092',
    kafkaProxy: { address: '127.0.0.1:19095', upstream: '127.0.0.1:19094' },
    mongoUrl: `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    smtpUrl: `smtp://${mail.getHost()}:${mail.getMappedPort(1025)}`,
    mailboxUrl: `http://${mail.getHost()}:${mail.getMappedPort(8025)}`,
    s3: { url: `http://${s3.getHost()}:${s3.getMappedPort(80)}`, ...s3Key },
    gcsUrl: `http://${gcs.getHost()}:${gcs.getMappedPort(4443)}`,
    async stop() {
      await Promise.all([kafka.stop(), mongo.stop(), redis.stop(), mail.stop(), s3.stop(), gcs.stop()]);
    },
  };
}

/**
 * Environment for running the apps as processes against the test infrastructure, isolated by `name`
 * (its own database and topic prefix).
 */
export function isolatedAppEnv(name: string, extra: Record<string, string> = {}): Record<string, string> {
  const infra = fromEnv();
  return {
    KAFKA_BROKERS: infra.kafkaBrokers,
    MONGO_URL: infra.mongoUrl,
    REDIS_URL: infra.redisUrl,
    MONGO_DB: name,
    KAFKA_TOPIC_PREFIX: `${name}.`,
    LOG_LEVEL: 'warn',
    ...extra,
  };
}
