import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, createPublisher, type KafkaClient, type Publisher } from '@platform/kafka';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createLogger } from '@platform/telemetry';
import {
  freePort,
  isolatedAppEnv,
  resolveInfra,
  startProcess,
  startWebhookReceiver,
  uniqueName,
  waitFor,
  type ManagedProcess,
  type WebhookReceiver,
} from '@platform/testing';
import { createDeliveryStore, type DeliveryStore } from '@platform/webhooks';
import { TEST_SECRETS } from '../support/secrets.js';
import {
  consumeDeliveredOutcomes,
  expectRepeatsUnderSameWebhookId,
  receivedIds,
  waitForEveryDelivery,
  waitForEveryDeliveryRecorded,
  webhookBurst,
  type DeliveredOutcomes,
} from '../support/webhook-burst.js';

// The broker, a single-node KRaft Kafka of its own (the jars deploy/local cached, its configuration as kafka.sh
// writes it, its log in a temporary folder), killed with SIGKILL while a burst of delivery requests is still being
// published and delivered, and started again on the same ports and log: the producer's retries and the dispatcher's
// consumer and relay must cost no delivery, and a repeat goes out under the same webhook-id.
const run = promisify(execFile);
const infra = resolveInfra();
const name = uniqueName('e2ewk');
const deployLocal = resolve(import.meta.dirname, '../../deploy/local');
const kafkaLibs = join(process.env['PLATFORM_CACHE_DIR'] ?? join(homedir(), '.cache/platform'), 'kafka-libs');
const dir = mkdtempSync(join(tmpdir(), `${name}-`));
let brokerPort: number;
let broker: ChildProcess | undefined;
let brokerOutput = '';
let dispatcher: ManagedProcess;
let healthUrl: string;
let receiver: WebhookReceiver;
let kafka: KafkaClient;
let publisher: Publisher;
let outcomes: DeliveredOutcomes | undefined;
let mongo: MongoConnection;
let store: DeliveryStore;

function writeBrokerConfig(controllerPort: number): string {
  const properties = join(dir, 'server.properties');
  mkdirSync(join(dir, 'data'));
  mkdirSync(join(dir, 'logs'));
  writeFileSync(
    properties,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${brokerPort},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${brokerPort}`,
      'controller.listener.names=CONTROLLER',
      'inter.broker.listener.name=PLAINTEXT',
      'listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      `log.dirs=${join(dir, 'data')}`,
      'num.partitions=4',
      'default.replication.factor=1',
      'auto.create.topics.enable=true',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=10',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'transaction.state.log.num.partitions=10',
      'group.initial.rebalance.delay.ms=0',
      'num.network.threads=2',
      'num.io.threads=4',
      '',
    ].join('\n'),
  );
  return properties;
}

function formatStorage(properties: string): void {
  // Kafka's Uuid format: 16 random bytes, URL-safe base64 without padding, not starting with '-'.
  const clusterId = `A${Buffer.from(crypto.getRandomValues(new Uint8Array(16)))
    .toString('base64url')
    .slice(1)}`;
  execFileSync(
    'java',
    [
      '-Xmx256m',
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      `-Dlog4j.configuration=file:${join(deployLocal, 'kafka/tools-log4j.properties')}`,
      '-cp',
      `${kafkaLibs}/*`,
      'kafka.tools.StorageTool',
      'format',
      '-t',
      clusterId,
      '-c',
      properties,
    ],
    { timeout: 60_000, stdio: 'pipe' },
  );
}

async function brokerAnswers(): Promise<boolean> {
  const probe = (kind: string) =>
    run('python3', [join(deployLocal, 'probe.py'), kind, '127.0.0.1', String(brokerPort)]);
  try {
    await probe('kafka');
    await probe('kafka-group');
    return true;
  } catch {
    return false;
  }
}

async function startBroker(properties: string): Promise<void> {
  const child = spawn(
    'java',
    [
      '-Xmx512m',
      '-Xms128m',
      '-XX:+UseG1GC',
      '-Djava.awt.headless=true',
      `-Dkafka.logs.dir=${join(dir, 'logs')}`,
      `-Dlog4j.configuration=file:${join(deployLocal, 'kafka/log4j.properties')}`,
      '-cp',
      `${kafkaLibs}/*`,
      'kafka.Kafka',
      properties,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => void (brokerOutput = (brokerOutput + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  broker = child;
  await waitFor(brokerAnswers, {
    what: 'a Kafka broker of its own',
    timeoutMs: 90_000,
    intervalMs: 250,
    failFast: () => (child.exitCode !== null ? `the broker exited: ${brokerOutput}` : undefined),
  });
}

/** The last warning and error lines of a process's JSON log, for a failure's message. */
function warningsOf(output: string): string {
  const worse = output.split('\n').filter((line) => /"level":(4|5|6)\d/.test(line));
  return worse
    .slice(-30)
    .map((line) => line.slice(0, 400))
    .join('\n');
}

const dispatcherDied = () => (dispatcher.exited() ? `the dispatcher exited: ${dispatcher.output()}` : undefined);

let properties: string;

beforeAll(async () => {
  brokerPort = await freePort();
  properties = writeBrokerConfig(await freePort());
  formatStorage(properties);
  await startBroker(properties);
  receiver = await startWebhookReceiver('/webhooks', '127.0.0.1');
  const healthPort = await freePort();
  healthUrl = `http://127.0.0.1:${healthPort}/readyz`;
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    KAFKA_BROKERS: `127.0.0.1:${brokerPort}`,
    KAFKA_SESSION_TIMEOUT_MS: '10000',
    EGRESS_ALLOW: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_RETRY_SCALE: '0.001',
    WEBHOOK_RECONCILE_INTERVAL_MS: '2000',
    HEALTH_PORT: String(healthPort),
  });
  dispatcher = startProcess('webhook-dispatcher', 'apps/webhook-dispatcher/dist/main.js', env);
  kafka = createKafka({
    brokers: [`127.0.0.1:${brokerPort}`],
    clientId: name,
    logger: createLogger({ name: 'e2e', level: 'warn' }),
    topicPrefix: env['KAFKA_TOPIC_PREFIX']!,
  });
  publisher = createPublisher(kafka, { source: '/e2e' });
  await publisher.connect();
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: 'e2e' });
  store = createDeliveryStore(mongo);
  await waitFor(async () => (await fetch(healthUrl)).ok, {
    what: 'the dispatcher ready',
    timeoutMs: 60_000,
    failFast: dispatcherDied,
  });
}, 180_000);

afterAll(async () => {
  await outcomes?.stop().catch(() => undefined);
  await dispatcher?.kill('SIGTERM');
  await publisher?.disconnect().catch(() => undefined);
  await receiver?.close();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
  if (broker && broker.exitCode === null) {
    broker.kill('SIGKILL');
    await new Promise((resolve) => broker!.once('exit', resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the Kafka broker killed in the middle of a webhook burst', () => {
  it('delivers every webhook once the broker is back, a repeat under the same webhook-id', async () => {
    receiver.respondWith(() => ({ status: 200, delayMs: 40 }));
    const burst = webhookBurst({ name, targetId: 'target_kafka_crash', url: `${receiver.url}/burst` });
    const { events } = burst;
    const delivered = () => new Set(receivedIds(receiver)).size;

    // Ten requests at a time, each ten once the one before is being delivered: the burst is still being published
    // when the broker dies. A publish that fails is published again, as a producer's redelivered event is.
    const chunks = Array.from({ length: 8 }, (_, k) => events.slice(k * 10, k * 10 + 10));
    let published = 0;
    const publishing = (async () => {
      for (const [k, chunk] of chunks.entries()) {
        if (k > 0)
          await waitFor(() => delivered() >= k * 10 - 5, { what: `chunk ${k - 1} delivered`, timeoutMs: 120_000 });
        await waitFor(async () => (await publisher.publishMany(chunk.map(burst.request))).length > 0, {
          what: `chunk ${k} published`,
          timeoutMs: 120_000,
          intervalMs: 500,
        });
        published += chunk.length;
      }
    })();
    publishing.catch(() => undefined);

    await waitFor(() => delivered() >= 22, {
      what: 'the burst under way',
      timeoutMs: 60_000,
      failFast: dispatcherDied,
    });
    expect(delivered()).toBeLessThan(events.length);
    expect(published).toBeLessThan(events.length);

    broker!.kill('SIGKILL');
    await new Promise((resolve) => broker!.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await startBroker(properties);

    await publishing;
    await waitForEveryDelivery(receiver, burst, { timeoutMs: 90_000, failFast: dispatcherDied });
    expectRepeatsUnderSameWebhookId(receiver);
    await waitForEveryDeliveryRecorded(store, burst, dispatcherDied);
    // Every outcome reached the broker too: the relay of the store's outbox came back with it.
    outcomes = await consumeDeliveredOutcomes(kafka);
    await outcomes.waitForEvery(burst, dispatcherDied).catch((error: unknown) => {
      throw new Error(`${String(error)}\nthe dispatcher's warnings and errors:\n${warningsOf(dispatcher.output())}`);
    });
    // The dispatcher came through the outage by itself: nothing restarted it.
    expect(dispatcher.exited()).toBe(false);
  }, 240_000);
});
