import {
  deleteStaleTestTopics,
  dropStaleTestDatabases,
  newTestRunTag,
  startInfra,
  type Infra,
} from '@platform/testing';

let infra: Infra | undefined;
/** This run's tag, if this setup made it: every project's setup runs in the same process, the first one tags the run. */
let ownRun: string | undefined;

/** Starts (or finds) the real dependencies once per run and hands their endpoints to every test file. */
export async function setup() {
  if (process.env['PLATFORM_TEST_RUN'] === undefined) process.env['PLATFORM_TEST_RUN'] = ownRun = newTestRunTag();
  infra = await startInfra();
  // Housekeeping: a failure here is reported, and never fails the run.
  const deleted = await deleteStaleTestTopics(infra.kafkaBrokers).catch((error: unknown) =>
    console.warn(`deleting stale test topics failed: ${String(error)}`),
  );
  if (deleted) console.log(`deleted ${deleted} topics that earlier test runs left behind`);
  const dropped = await dropStaleTestDatabases(infra.mongoUrl).catch((error: unknown) =>
    console.warn(`dropping stale test databases failed: ${String(error)}`),
  );
  if (dropped) console.log(`dropped ${dropped} databases that earlier test runs left behind`);
  process.env['KAFKA_BROKERS'] = infra.kafkaBrokers;
  process.env['KAFKA_PROXY_ADDRESS'] = infra.kafkaProxy.address;
  process.env['KAFKA_PROXIED_LISTENER'] = infra.kafkaProxy.upstream;
  process.env['MONGO_URL'] = infra.mongoUrl;
  process.env['REDIS_URL'] = infra.redisUrl;
  process.env['SMTP_URL'] = infra.smtpUrl;
  process.env['MAILBOX_URL'] = infra.mailboxUrl;
  process.env['S3_URL'] = infra.s3.url;
  process.env['S3_ACCESS_KEY_ID'] = infra.s3.accessKeyId;
  process.env['S3_SECRET_ACCESS_KEY'] = infra.s3.secretAccessKey;
  process.env['GCS_URL'] = infra.gcsUrl;
  if (infra.storePostgresUrl) process.env['FERRETDB_POSTGRES_URL'] = infra.storePostgresUrl;
  else delete process.env['FERRETDB_POSTGRES_URL'];
}

export async function teardown() {
  // The run's own topics and databases (every test stack's name carries the run's tag): the next run, or a
  // benchmark, finds the broker and the store as this one did. Reported, never failing the run.
  if (ownRun !== undefined && infra !== undefined) {
    const started = Date.now();
    const [topics, databases] = await Promise.all([
      deleteStaleTestTopics(infra.kafkaBrokers, { run: ownRun }).catch(
        (error: unknown) => void console.warn(`deleting this run's topics failed: ${String(error)}`),
      ),
      dropStaleTestDatabases(infra.mongoUrl, { run: ownRun }).catch(
        (error: unknown) => void console.warn(`dropping this run's databases failed: ${String(error)}`),
      ),
    ]);
    console.log(
      `removed this run's ${topics ?? '?'} topics and ${databases ?? '?'} databases in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  await infra?.stop();
}
