import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyticsStore, createReports, readMetricsQuery, type Reports } from '@platform/analytics';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import { createKafka, createPublisher, ensureTopics, type KafkaClient, type Publisher } from '@platform/kafka';
import { LINKS_TOPICS } from '@platform/links';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createLogger } from '@platform/telemetry';
import { isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';

// The aggregator as a real process, SIGKILLed while it folds a burst of clicks: every click is counted once,
// none lost (the partition's next owner redoes the uncommitted batches) and none twice (the buckets'
// watermarks recognise what the killed process had already written, even half a batch).

const name = uniqueName('e2eagg');
const env = isolatedAppEnv(name, {
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  ANALYTICS_MAX_BATCH: '100',
  PARTITIONS_CONCURRENCY: '4',
});
const GROUP = 'BgCrash';
const LINKS = 48;
const TOTAL = 6000;
const REPEATS = 300;

let kafka: KafkaClient;
let publisher: Publisher;
let mongo: MongoConnection;
let reports: Reports;
const processes: ManagedProcess[] = [];
const startAggregator = () => {
  const p = startProcess('analytics-aggregator', 'apps/analytics-aggregator/dist/main.js', env);
  processes.push(p);
  return p;
};

beforeAll(async () => {
  const logger = createLogger({ name, level: 'silent' });
  kafka = createKafka({
    brokers: env['KAFKA_BROKERS']!.split(','),
    clientId: name,
    logger,
    topicPrefix: env['KAFKA_TOPIC_PREFIX']!,
  });
  await ensureTopics(kafka, [LINKS_TOPICS.clicks, LINKS_TOPICS.events]);
  publisher = createPublisher(kafka, { source: '/e2e' });
  await publisher.connect();
  mongo = await connectMongo({ url: env['MONGO_URL']!, dbName: name, appName: name });
  reports = createReports(createAnalyticsStore(mongo));
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await publisher?.disconnect();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

async function counted(): Promise<number> {
  const q = readMetricsQuery({ unit: 'month', units: '2' }, { now: Date.now() });
  if (!q.ok) throw new Error('query');
  return (await reports.engagementsSummary({ kind: 'group', key: GROUP }, q.value, null)).engagements.clicks;
}

/** Whether the group has committed every partition's end offset (nothing left to redo). */
async function caughtUp(): Promise<boolean> {
  const admin = kafka.kafka.admin();
  await admin.connect();
  try {
    const topic = `${kafka.topicPrefix}${LINKS_TOPICS.clicks}`;
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({
      groupId: `${kafka.topicPrefix}analytics-aggregator`,
      topics: [topic],
    });
    return ends.every((end) => committed!.partitions.find((p) => p.partition === end.partition)?.offset === end.offset);
  } finally {
    await admin.disconnect();
  }
}

describe('an aggregator killed in the middle of a burst', () => {
  it('loses and double-counts nothing', async () => {
    let aggregator = startAggregator();
    const now = Date.now();
    const clicks: ShortlinkClicked[] = Array.from({ length: TOTAL }, (_, i) => ({
      click_id: `${name}:${i}`,
      id: `sho.rt/crash${i % LINKS}`,
      organization_id: 'org',
      group_guid: GROUP,
      long_url: 'https://example.com/',
      clicked_at: now - (i % 600) * 1000,
      referrer: i % 3 === 0 ? 'https://t.co/x' : null,
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
      client_ip: i % 2 ? '81.2.69.160' : '89.160.20.112',
      bot: false,
      qr: false,
      qrcode_id: null,
      passed_params: '',
    }));
    const send = (list: ShortlinkClicked[]) =>
      publisher.publishMany(
        list.map((c) => ({
          topic: LINKS_TOPICS.clicks,
          key: c.id,
          id: c.click_id,
          type: MessageTypeNames.ShortlinkClicked,
          value: c,
        })),
      );
    for (let i = 0; i < TOTAL; i += 500) await send(clicks.slice(i, i + 500));
    await send(clicks.slice(0, REPEATS)); // re-published by a redirector

    const before = await waitFor(
      async () => {
        const n = await counted();
        return n >= TOTAL * 0.2 && n;
      },
      {
        what: 'a fifth of the burst counted',
        timeoutMs: 90_000,
        intervalMs: 20,
        failFast: () => (aggregator.exited() ? aggregator.output().slice(-2000) : undefined),
      },
    );
    aggregator.child.kill('SIGKILL');
    await aggregator.exit;
    const atKill = await counted();
    expect(before).toBeLessThan(TOTAL);
    expect(atKill).toBeLessThan(TOTAL);

    aggregator = startAggregator();
    await waitFor(async () => (await counted()) >= TOTAL && (await caughtUp()), {
      what: 'every click counted and every offset committed',
      timeoutMs: 120_000,
      intervalMs: 200,
      failFast: () => (aggregator.exited() ? aggregator.output().slice(-2000) : undefined),
    });
    expect(await counted()).toBe(TOTAL);

    // The facets add up to the same total, and each link has exactly its share.
    const q = readMetricsQuery({ unit: 'day', units: '2', size: '1000' }, { now: Date.now() });
    if (!q.ok) throw new Error('query');
    const countries = await reports.faceted({ kind: 'group', key: GROUP }, q.value, null, {
      kind: 'clicks',
      facet: 'country',
      name: 'countries',
    });
    expect(countries.metrics).toEqual([
      { clicks: TOTAL / 2, value: 'GB' },
      { clicks: TOTAL / 2, value: 'SE' },
    ]);
    const top = await reports.topLinks({ kind: 'group', key: GROUP }, q.value, null);
    expect(top).toHaveLength(LINKS);
    expect(new Set(top.map((t) => t.count))).toEqual(new Set([TOTAL / LINKS]));
    const minutes = await reports.series(
      { kind: 'group', key: GROUP },
      { ...q.value, unit: 'minute', units: 15 },
      null,
      'clicks',
    );
    expect(minutes.data.reduce((sum, d) => sum + d.count, 0)).toBe(TOTAL);
  }, 300_000);
});
