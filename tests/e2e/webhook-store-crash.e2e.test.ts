import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, createPublisher, type KafkaClient, type Publisher } from '@platform/kafka';
import { connectMongo, pingMongo, type MongoConnection } from '@platform/mongo';
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

// The dispatcher's document store, a FerretDB of its own (the binary deploy/local built) on a PostgreSQL database
// of its own in the shared cluster, killed with SIGKILL in the middle of a burst and started again on the same
// port: no delivery may be lost, and a repeat goes out under the same webhook-id.
const infra = resolveInfra();
const name = uniqueName('e2ews');
const ferretdbBin = join(process.env['PLATFORM_CACHE_DIR'] ?? join(homedir(), '.cache/platform'), 'bin/ferretdb');
const stateDir = mkdtempSync(join(tmpdir(), `${name}-`));
// On PostgreSQL (the default) a database of its own, so that the shared FerretDB never sees this one's metadata;
// on the SQLite option, files in the temporary folder.
const postgres = infra.storePostgresUrl ? new URL(infra.storePostgresUrl) : undefined;
const backendArgs = postgres
  ? ['--handler=postgresql', `--postgresql-url=${withDatabase(postgres, name)}`]
  : ['--handler=sqlite', `--sqlite-url=file:${stateDir}/`];
let storePort: number;
let storeUrl: string;
let ferretdb: ChildProcess | undefined;
let ferretdbOutput = '';
let dispatcher: ManagedProcess;
let receiver: WebhookReceiver;
let kafka: KafkaClient;
let publisher: Publisher;
let outcomes: DeliveredOutcomes | undefined;
let mongo: MongoConnection;
let store: DeliveryStore;

function withDatabase(url: URL, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
}

function psql(sql: string): void {
  execFileSync('psql', [withDatabase(postgres!, 'postgres'), '-qc', sql], { timeout: 30_000, stdio: 'pipe' });
}

async function storeAnswers(): Promise<boolean> {
  const probe = await connectMongo({ url: storeUrl, dbName: name, appName: 'probe' }).catch(() => undefined);
  if (!probe) return false;
  try {
    await pingMongo(probe);
    return true;
  } catch {
    return false;
  } finally {
    await probe.close().catch(() => undefined);
  }
}

async function startStore(): Promise<void> {
  const child = spawn(
    ferretdbBin,
    [
      ...backendArgs,
      `--listen-addr=127.0.0.1:${storePort}`,
      `--state-dir=${stateDir}`,
      '--telemetry=disable',
      '--debug-addr=-',
      '--log-level=warn',
      '--log-format=text',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (chunk: Buffer) => void (ferretdbOutput = (ferretdbOutput + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  ferretdb = child;
  await waitFor(storeAnswers, {
    what: 'a FerretDB of its own',
    timeoutMs: 30_000,
    failFast: () => (child.exitCode !== null ? `FerretDB exited: ${ferretdbOutput}` : undefined),
  });
}

const dispatcherDied = () => (dispatcher.exited() ? `the dispatcher exited: ${dispatcher.output()}` : undefined);

beforeAll(async () => {
  if (postgres) psql(`CREATE DATABASE "${name}"`);
  storePort = await freePort();
  storeUrl = `mongodb://127.0.0.1:${storePort}`;
  await startStore();
  receiver = await startWebhookReceiver('/webhooks', '127.0.0.1');
  const healthPort = await freePort();
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    MONGO_URL: storeUrl,
    EGRESS_ALLOW: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_RETRY_SCALE: '0.001',
    WEBHOOK_RECONCILE_INTERVAL_MS: '2000',
    HEALTH_PORT: String(healthPort),
  });
  dispatcher = startProcess('webhook-dispatcher', 'apps/webhook-dispatcher/dist/main.js', env);
  kafka = createKafka({
    brokers: infra.kafkaBrokers.split(','),
    clientId: name,
    logger: createLogger({ name: 'e2e', level: 'warn' }),
    topicPrefix: env['KAFKA_TOPIC_PREFIX']!,
  });
  publisher = createPublisher(kafka, { source: '/e2e' });
  await publisher.connect();
  mongo = await connectMongo({ url: storeUrl, dbName: name, appName: 'e2e' });
  store = createDeliveryStore(mongo);
  await waitFor(async () => (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).ok, {
    what: 'the dispatcher ready',
    timeoutMs: 60_000,
    failFast: dispatcherDied,
  });
}, 120_000);

afterAll(async () => {
  await outcomes?.stop().catch(() => undefined);
  await dispatcher?.kill('SIGTERM');
  await publisher?.disconnect();
  await receiver?.close();
  await mongo?.close().catch(() => undefined);
  if (ferretdb && ferretdb.exitCode === null) {
    ferretdb.kill('SIGKILL');
    await new Promise((resolve) => ferretdb!.once('exit', resolve));
  }
  if (postgres) psql(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  rmSync(stateDir, { recursive: true, force: true });
});

describe('the document store killed in the middle of a webhook burst', () => {
  it('delivers every webhook once the store is back, a repeat under the same webhook-id', async () => {
    receiver.respondWith(() => ({ status: 200, delayMs: 40 }));
    const burst = webhookBurst({ name, targetId: 'target_store_crash', url: `${receiver.url}/burst` });
    await publisher.publishMany(burst.events.map(burst.request));
    const ids = () => receivedIds(receiver);
    await waitFor(() => ids().length >= 10, {
      what: 'the burst under way',
      timeoutMs: 60_000,
      failFast: dispatcherDied,
    });
    expect(new Set(ids()).size).toBeLessThan(burst.events.length);

    ferretdb!.kill('SIGKILL');
    await new Promise((resolve) => ferretdb!.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await startStore();

    await waitForEveryDelivery(receiver, burst, { timeoutMs: 60_000, failFast: dispatcherDied });
    expectRepeatsUnderSameWebhookId(receiver);
    await waitForEveryDeliveryRecorded(store, burst, dispatcherDied);
    // Every outcome was written with its delivery's record, and relayed from the store's outbox once it was back.
    outcomes = await consumeDeliveredOutcomes(kafka);
    await outcomes.waitForEvery(burst, dispatcherDied);
    // The dispatcher came through the outage by itself: nothing restarted it.
    expect(dispatcher.exited()).toBe(false);
  }, 180_000);
});
