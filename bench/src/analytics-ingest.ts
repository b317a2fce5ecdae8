import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import { createKafka, createPublisher, ensureTopics, type KafkaClient } from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { cleanUpStack } from './cleanup.js';
import { countTopic, type TopicRead } from './count-topic.js';
import { cpuSeconds, peakRssMiB } from './cpu.js';
import { closedLoop } from './load.js';
import { round1, round2 } from './stores.js';

/**
 * Click analytics: the analytics aggregator (a real process) draining a burst of ShortlinkClicked events
 * already on `links.clicks`, next to a bare kafkajs consumer group reading the same topic in the same run (the
 * ceiling: it decodes nothing and writes nothing); a second burst drained by two aggregator processes that split
 * the partitions (what a second replica adds on the same machine); then the latency of the metrics endpoints over
 * a year of one link's data, through the links gateway. `BENCH_ANALYTICS_AGGREGATOR_LOG=<file>` keeps the first
 * draining aggregator's debug log (a line per fold: events, buckets, and the time it took to plan and to write).
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchagg');
const burst = Number(process.env['BENCH_ANALYTICS_BURST'] ?? 1_000_000);
const links = Number(process.env['BENCH_ANALYTICS_LINKS'] ?? 1000);
const yearClicks = Number(process.env['BENCH_ANALYTICS_YEAR_CLICKS'] ?? 100_000);
const queries = Number(process.env['BENCH_ANALYTICS_QUERIES'] ?? 400);
/** A file for the draining aggregator's debug log (each fold's events, buckets and timings). */
const aggregatorLog = process.env['BENCH_ANALYTICS_AGGREGATOR_LOG'];
/** The aggregator's entry point: a former build's `apps/analytics-aggregator/dist/main.js` to compare with it. */
const aggregatorMain =
  process.env['BENCH_ANALYTICS_AGGREGATOR_MAIN'] ?? path.join(root, 'apps/analytics-aggregator/dist/main.js');
/** Node flags for the aggregator (`--cpu-prof --cpu-prof-dir=...` to profile it), space-separated. */
const aggregatorNodeArgs = (process.env['BENCH_ANALYTICS_AGGREGATOR_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
const env = isolatedAppEnv(name, {
  API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
  LINKS_DEFAULT_DOMAIN: 'sho.rt',
  LOG_LEVEL: 'warn',
});
const logger = createLogger({ name, level: 'warn' });
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:121.0) Gecko/20100101 Firefox/121.0',
];
const IPS = ['81.2.69.160', '89.160.20.112', '8.8.8.8', '2.125.160.216', '185.60.216.35'];
const REFERRERS = [
  null,
  'https://t.co/abc',
  'https://www.facebook.com/',
  'https://news.example.com/a/b',
  'https://www.google.com/',
];

/** How many members a consumer group has once it is stable (they fetch from then on), or 0. */
async function stableMembers(kafka: KafkaClient, groupId: string): Promise<number> {
  const admin = kafka.kafka.admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    return groups.find((g) => g.state === 'Stable')?.members.length ?? 0;
  } finally {
    await admin.disconnect();
  }
}

/** The committed offsets of a group against the topic's end offsets: what is still to consume. */
async function lagOf(kafka: KafkaClient, groupId: string, topic: string): Promise<number> {
  const admin = kafka.kafka.admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return ends.reduce((sum, end) => {
      const at = Number(committed?.partitions.find((p) => p.partition === end.partition)?.offset ?? -1);
      return sum + Number(end.offset) - Math.max(0, at);
    }, 0);
  } finally {
    await admin.disconnect();
  }
}

const clickOf = (i: number, id: string, group: string, organization: string, at: number): ShortlinkClicked => ({
  click_id: `${name}:${i}`,
  id,
  organization_id: organization,
  group_guid: group,
  long_url: `https://example.com/landing/${id}`,
  clicked_at: at,
  referrer: REFERRERS[i % REFERRERS.length]!,
  user_agent: AGENTS[i % AGENTS.length]!,
  client_ip: IPS[i % IPS.length]!,
  bot: false,
  qr: i % 10 === 0,
  qrcode_id: i % 10 === 0 ? `Q${i % 7}` : null,
  passed_params: i % 4 === 0 ? 'utm_source=bench' : '',
});

/** Publishes `count` clicks made by `make` (in batches of 2 000), and says how long it took. */
async function produce(kafka: KafkaClient, count: number, make: (i: number) => ShortlinkClicked) {
  const publisher = createPublisher(kafka, { source: '/bench' });
  await publisher.connect();
  const started = performance.now();
  for (let from = 0; from < count; from += 2000) {
    const list: ShortlinkClicked[] = [];
    for (let i = from; i < Math.min(from + 2000, count); i++) list.push(make(i));
    await publisher.publishMany(
      list.map((c) => ({
        topic: 'links.clicks',
        key: c.id,
        id: c.click_id,
        type: MessageTypeNames.ShortlinkClicked,
        value: c,
      })),
    );
  }
  await publisher.disconnect();
  return (performance.now() - started) / 1000;
}

/**
 * The ceiling: a bare kafkajs group reading the whole topic and counting its messages, in a process of its own,
 * with kafkajs as published.
 */
async function rawKafkajsConsume(topic: string, expected: number) {
  const { stdout } = await run(process.execPath, [path.join(root, 'bench/dist/raw-kafkajs-consume.js')], {
    env: {
      ...process.env,
      KAFKA_BROKERS: env['KAFKA_BROKERS']!,
      RAW_TOPIC: topic,
      RAW_GROUP: `${env['KAFKA_TOPIC_PREFIX']!}raw`,
      RAW_EXPECTED: String(expected),
    },
    timeout: 660_000,
  });
  return JSON.parse(stdout) as TopicRead;
}

/**
 * The same bare group on the platform's Kafka client, in the bench process (which does little else meanwhile):
 * kafkajs with the platform's record reader (ADR 0028), what the aggregator reads with.
 */
async function platformConsume(kafka: KafkaClient, topic: string, expected: number) {
  return countTopic(
    kafka.kafka.consumer({ groupId: `${kafka.topicPrefix}raw-platform`, allowAutoTopicCreation: false }),
    topic,
    expected,
  );
}

async function main() {
  const processes: ManagedProcess[] = [];
  const kafka = createKafka({
    brokers: env['KAFKA_BROKERS']!.split(','),
    clientId: name,
    logger,
    topicPrefix: env['KAFKA_TOPIC_PREFIX']!,
  });
  const topic = `${env['KAFKA_TOPIC_PREFIX']!}links.clicks`;
  const failFast = () =>
    processes
      .find((p) => p.exited())
      ?.output()
      .slice(-2000);
  try {
    await ensureTopics(kafka, ['links.clicks', 'links.events', 'links.commands']);
    const gatewayPort = await freePort();
    processes.push(startProcess('links-worker', path.join(root, 'apps/links-worker/dist/main.js'), env));
    // The query phase sends an endpoint 800 and more requests a minute, past the default platform limit (1 000 a
    // minute with two paths on one endpoint); the higher limit is still counted on every request, in Redis.
    processes.push(
      startProcess('links-gateway', path.join(root, 'apps/links-gateway/dist/main.js'), {
        ...env,
        PORT: String(gatewayPort),
        LINKS_HOURLY_LIMIT: '10000000',
      }),
    );
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${gatewayPort}/readyz`).catch(() => undefined))?.ok === true,
      { what: 'links-gateway', timeoutMs: 60_000, failFast },
    );
    const token = (
      await run(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'links'], {
        env: { ...process.env, ...env },
      })
    ).stdout.trim();
    const api = (p: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${gatewayPort}${p}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
    const created = (await (
      await api('/v4/shorten', {
        method: 'POST',
        body: JSON.stringify({ long_url: 'https://example.com/a-year-of-clicks' }),
      })
    ).json()) as { id: string; references: { group: string } };
    const group = created.references.group.split('/').at(-1)!;
    const organization = 'org';

    const groupId = `${env['KAFKA_TOPIC_PREFIX']!}analytics-aggregator`;
    const startAggregator = () => {
      const p = startProcess(
        'analytics-aggregator',
        aggregatorMain,
        { ...env, ...(aggregatorLog ? { LOG_LEVEL: 'debug' } : {}) },
        { nodeArgs: aggregatorNodeArgs },
      );
      processes.push(p);
      return p;
    };
    /**
     * Waits until the group has committed everything on the topic; the seconds from the moment it joined the
     * group (its first fetch; a consumer may commit only once it has applied a large batch), and when it first
     * committed anything.
     */
    const drain = async (what: string, aggregators: ManagedProcess[]) => {
      await waitFor(async () => (await stableMembers(kafka, groupId)) >= aggregators.length, {
        what: `${what}: the group joined`,
        timeoutMs: 120_000,
        intervalMs: 50,
        failFast,
      });
      const joined = performance.now();
      const cpuBefore = aggregators.map((a) => cpuSeconds(a.child.pid));
      // What is left from here on (with two members, the first may have committed a little on its own).
      const initial = await lagOf(kafka, groupId, topic);
      let first = 0;
      const samples: Array<{ t: number; lag: number }> = [];
      await waitFor(
        async () => {
          const lag = await lagOf(kafka, groupId, topic);
          const t = performance.now();
          if (lag < initial && first === 0) first = t;
          samples.push({ t: round1((t - joined) / 1000), lag });
          return lag === 0;
        },
        { what, timeoutMs: 1_800_000, intervalMs: 250, failFast },
      );
      const seconds = (performance.now() - joined) / 1000;
      const cpu = aggregators.reduce((sum, a, i) => sum + cpuSeconds(a.child.pid) - cpuBefore[i]!, 0);
      // All the aggregators' threads (the collector's helpers too), per event committed.
      return {
        events: initial,
        seconds,
        peakRssMiB: aggregators.map((a) => peakRssMiB(a.child.pid)),
        cpuUsPerEvent: initial > 0 ? round2((cpu / initial) * 1e6) : null,
        firstCommitSeconds: round2((first - joined) / 1000),
        samples,
      };
    };
    const stopAggregator = async (p: ManagedProcess) => {
      await p.kill('SIGTERM');
      processes.splice(processes.indexOf(p), 1); // stopped on purpose: not a failure to stop the run for
    };

    // A year of one link's clicks, folded first (its own phase: a year does not arrive in a burst).
    const yearNow = Date.now();
    const yearProduce = await produce(kafka, yearClicks, (i) =>
      clickOf(burst + i, created.id, group, organization, yearNow - Math.floor((i / yearClicks) * 365 * 86_400_000)),
    );
    let aggregator = startAggregator();
    const preload = await drain('the year of one link folded', [aggregator]);
    await stopAggregator(aggregator);

    // The burst, as the redirector would produce it at its measured maximum (~5 000 redirects/s, half the
    // clicks on 1 % of the links), waiting on the topic; the raw consumer reads the topic, then the aggregator
    // drains the burst from where it stopped.
    const produceBurst = (first: number) => {
      const now = Date.now();
      return produce(kafka, burst, (i) => {
        const n = i % 2 === 0 ? i % Math.max(1, Math.floor(links / 100)) : i % links;
        return clickOf(
          first + i,
          `sho.rt/bench${n}`,
          `BgBench${n % 10}`,
          organization,
          now - Math.floor(((burst - i) / 5000) * 1000),
        );
      });
    };
    const produceSeconds = await produceBurst(0);
    const raw = await rawKafkajsConsume(topic, yearClicks + burst);
    const platformRead = await platformConsume(kafka, topic, yearClicks + burst);
    aggregator = startAggregator();
    const drained = await drain('the aggregator drained the burst', [aggregator]);
    const drainSeconds = drained.seconds;
    if (aggregatorLog) writeFileSync(aggregatorLog, aggregator.output());
    const ingest = {
      events: burst,
      seconds: round2(drainSeconds),
      events_per_second: Math.round(burst / drainSeconds),
      cpu_us_per_event: drained.cpuUsPerEvent,
      peak_rss_mib: drained.peakRssMiB[0],
    };

    // A second burst like the first (new click ids), drained by two aggregators that split the partitions: a
    // deployment's second replica, on the same two cores.
    await stopAggregator(aggregator);
    await produceBurst(burst + yearClicks);
    const pair = [startAggregator(), startAggregator()];
    // Timed from the group being stable with both (the first in may have read on its own for a moment, and its
    // uncommitted folds are read again by the other: the rebalance is not what is measured).
    const drainedByTwo = await drain('two aggregators drained the second burst', pair);
    const twoIngest = {
      events: drainedByTwo.events,
      seconds: round2(drainedByTwo.seconds),
      events_per_second: Math.round(drainedByTwo.events / drainedByTwo.seconds),
      cpu_us_per_event: drainedByTwo.cpuUsPerEvent,
      peak_rss_mib: drainedByTwo.peakRssMiB,
      group_members_at_end: await stableMembers(kafka, groupId),
    };
    if (twoIngest.group_members_at_end !== pair.length)
      throw new Error(`the group has ${twoIngest.group_members_at_end} members, not ${pair.length}`);
    const samples = drained.samples;
    const total = burst;

    // Query latency over a year of one link's data.
    await sleep(500);
    const link = `/v4/shortlinks/${created.id}`;
    const paths = [
      `${link}/engagements?unit=day&units=-1`,
      `${link}/engagements/summary?unit=day&units=365`,
      `${link}/countries?unit=month&units=12`,
      `${link}/cities?unit=month&units=12`,
      `${link}/referrers?unit=week&units=52`,
      `${link}/engagements?unit=hour&units=168`,
      `/v4/groups/${group}/clicks?unit=day&units=365`,
      `/v4/groups/${group}/engagements/top?unit=month&units=12`,
    ];
    const latency: Record<string, unknown> = {};
    for (const p of paths) {
      const request = () => ({ method: 'GET' as const, path: p, headers: { authorization: `Bearer ${token}` } });
      const origin = `http://127.0.0.1:${gatewayPort}`;
      latency[p] = {
        one_at_a_time: await closedLoop({
          origin,
          concurrency: 1,
          total: queries,
          warmup: 20,
          maxSeconds: 60,
          request,
          expectStatus: 200,
        }),
        eight_in_flight: await closedLoop({
          origin,
          concurrency: 8,
          total: queries,
          warmup: 0,
          maxSeconds: 60,
          request,
          expectStatus: 200,
        }),
      };
    }
    const summary = (await (await api(`${link}/engagements/summary?unit=month&units=13`)).json()) as {
      total_engagements: number;
    };

    const result = {
      benchmark: 'analytics-ingest',
      description:
        `First ${yearClicks} clicks on one link over a year are folded (not measured as ingest). Then a burst of ${burst} ShortlinkClicked events over ${links} links ` +
        '(half on 1 % of them, timed as the redirector produces them at 5 000/s) waits on links.clicks (12 partitions); a bare kafkajs group reads the topic ' +
        "(the ceiling: kafkajs 2.2.4 as published, in a process of its own, no decoding, no store), the same group on the platform's Kafka client reads it again (its record reader, ADR 0028), then the analytics aggregator (one process, its default settings) drains the burst into buckets from where it stopped, timed from joining its group to its last commit. " +
        'A second burst like it is then drained by two aggregator processes that split the partitions (timed from the group being stable with both, over what was left to commit then). ' +
        'Last, closed-loop GETs of metrics endpoints over the year of that link, one at a time and 8 in flight.',
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
      targets: { ingest_share_of_raw_consume: 0.5, query_p99_ms: 50 },
      year_preload: { events: yearClicks, produce_seconds: round2(yearProduce), fold_seconds: round2(preload.seconds) },
      burst_produce_seconds: round2(produceSeconds),
      raw_kafkajs_consume: raw,
      platform_client_consume: platformRead,
      aggregator_ingest: ingest,
      two_aggregators_ingest: twoIngest,
      lag_after_burst: {
        events: total,
        drained_in_seconds: round2(drainSeconds),
        first_commit_after_seconds: drained.firstCommitSeconds,
        samples: samples.filter((_, i) => i % 10 === 0),
      },
      year_link_counted: summary.total_engagements,
      query_latency: latency,
      ratio: {
        ingest_share_of_raw_consume: round2(ingest.events_per_second / raw.events_per_second),
        ingest_share_of_platform_client_consume: round2(ingest.events_per_second / platformRead.events_per_second),
        cpu_per_event_over_raw:
          ingest.cpu_us_per_event === null ? null : round2(ingest.cpu_us_per_event / raw.cpu_us_per_event),
        cpu_per_event_over_platform_client:
          ingest.cpu_us_per_event === null ? null : round2(ingest.cpu_us_per_event / platformRead.cpu_us_per_event),
        two_aggregators_over_one: round2(twoIngest.events_per_second / ingest.events_per_second),
        two_aggregators_share_of_raw_consume: round2(twoIngest.events_per_second / raw.events_per_second),
      },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/analytics-ingest.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    // Two million clicks a run: its topics, groups and database go with it.
    await cleanUpStack(env, ['analytics-aggregator', 'raw', 'raw-platform']).catch((error: unknown) =>
      logger.warn({ err: error }, 'cleaning up the run failed'),
    );
  }
}

await main();
