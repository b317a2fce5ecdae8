import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_RETENTION,
  createAnalyticsStore,
  createAnalyticsWriter,
  createFacetReader,
  createRedisSightings,
  createReports,
  engagementOfClick,
  openGeoDatabase,
  planBatch,
  readMetricsQuery,
  type AnalyticsWriter,
  type FacetReader,
  type Sightings,
  type MetricsQuery,
  type Reports,
  type Scope,
} from '@platform/analytics';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import { createKafka, createPublisher, type BatchMessage, type IncomingBatch } from '@platform/kafka';
import { LINKS_TOPICS } from '@platform/links';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createRedis, type Redis } from '@platform/redis';
import { startService } from '@platform/runtime/start';
import { testLogger } from '../support/test-logger.js';
import { isolatedAppEnv, resolveInfra, uniqueName, waitFor } from '@platform/testing';
import { createAggregator, type AggregatedType } from '../../apps/analytics-aggregator/src/aggregator.js';
import { config as aggregatorConfig } from '../../apps/analytics-aggregator/src/config.js';
import { build as buildAggregator } from '../../apps/analytics-aggregator/src/service.js';

// The aggregator's folding against the real store: a deterministic stream with known answers, then every way
// an event can arrive twice (the same batch again, other cuts of it, a crash half-way through its writes, a
// zombie member writing at the same time, a producer's repeat at a later offset).

const NOW = Date.parse('2024-03-01T12:00:00Z');
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const GB = '81.2.69.160'; // Bracknell, Bracknell Forest, England, GB (MaxMind's test address)
const SE = '89.160.20.112'; // Kristinehamn, Varmland County, SE
const US = '8.8.8.8'; // US, no city

let mongo: MongoConnection;
let writer: AnalyticsWriter;
let reports: Reports;
let facets: FacetReader;
let redis: Redis;
let sightings: Sightings;

beforeAll(async () => {
  const name = uniqueName('analytics');
  mongo = await connectMongo({ url: resolveInfra().mongoUrl, dbName: name, appName: name });
  writer = createAnalyticsWriter(mongo);
  await writer.ensureIndexes();
  redis = createRedis(resolveInfra().redisUrl, { name });
  sightings = createRedisSightings(redis, { namespace: `${name}:`, windowMs: 3600_000 });
  reports = createReports(createAnalyticsStore(mongo));
  facets = createFacetReader(await openGeoDatabase());
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
  redis?.disconnect();
});

let linkSeq = 0;
const newLink = () => ({
  id: `sho.rt/l${++linkSeq}${Date.now().toString(36)}`,
  group: `Bg${linkSeq}${Date.now().toString(36)}`,
});

interface ClickSpec {
  offset: number;
  at: string;
  id?: string;
  ip?: string | null;
  ua?: string | null;
  referrer?: string | null;
  qr?: boolean;
  bot?: boolean;
  longUrl?: string;
}

function message(link: { id: string; group: string }, c: ClickSpec): BatchMessage<AggregatedType> {
  const value: ShortlinkClicked = {
    click_id: c.id ?? `${link.id}:${c.offset}`,
    id: link.id,
    organization_id: 'org',
    group_guid: link.group,
    long_url: c.longUrl ?? 'https://example.com/a',
    clicked_at: Date.parse(c.at),
    referrer: c.referrer ?? null,
    user_agent: c.ua === undefined ? CHROME : c.ua,
    client_ip: c.ip === undefined ? GB : c.ip,
    bot: c.bot ?? false,
    qr: c.qr ?? false,
    qrcode_id: null,
    passed_params: '',
  };
  const meta = {
    id: value.click_id,
    type: MessageTypeNames.ShortlinkClicked,
    source: '/redirector',
    time: '',
    schema: '',
    raw: {},
  };
  return { offset: String(c.offset), key: link.id, type: MessageTypeNames.ShortlinkClicked, value, meta };
}

const batchOf = (
  partition: number,
  messages: Array<BatchMessage<AggregatedType>>,
  topic = 'test.links.clicks',
  behind = 0,
): IncomingBatch<AggregatedType> => ({
  topic,
  partition,
  messages,
  firstOffset: messages[0]!.offset,
  lastOffset: messages.at(-1)!.offset,
  behind,
  heartbeat: async () => undefined,
  deadLetter: async () => undefined,
});

/** An aggregator whose writes are finished before each call returns (as the consumer finishes them, then commits). */
function finished(ingest: ReturnType<typeof createAggregator>) {
  return async (batch: IncomingBatch<AggregatedType>): Promise<'hold' | 'written'> => {
    const outcome = await ingest(batch);
    if (outcome === 'hold') return outcome;
    await outcome.finish();
    return 'written';
  };
}

const aggregator = (options: { maxBatch?: number } = {}) =>
  finished(
    createAggregator({
      writer,
      sightings,
      facets,
      retention: DEFAULT_RETENTION,
      countBots: false,
      now: () => NOW,
      ...options,
    }),
  );

function query(q: Record<string, string>): MetricsQuery {
  const read = readMetricsQuery(q, { now: NOW });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.value;
}

const linkScope = (link: { id: string }): Scope => ({ kind: 'link', key: link.id });
const groupScope = (link: { group: string }): Scope => ({ kind: 'group', key: link.group });
const summary = async (link: { id: string }, q: Record<string, string> = { unit: 'month', units: '1' }) =>
  (await reports.engagementsSummary(linkScope(link), query(q), null)).engagements;

describe('a known stream', () => {
  const link = newLink();
  const since = Date.parse('2024-02-26T09:00:00Z'); // the link's creation

  beforeAll(async () => {
    const clicks: ClickSpec[] = [
      { offset: 0, at: '2024-02-26T10:00:00Z', ip: SE, referrer: 'https://t.co/abc?x=1' },
      { offset: 1, at: '2024-02-28T23:59:59Z', ip: GB, referrer: 'https://www.facebook.com/' },
      { offset: 2, at: '2024-02-29T00:00:00Z', ip: GB, ua: IPHONE, referrer: 'https://t.co/abc' },
      { offset: 3, at: '2024-02-29T12:30:00Z', ip: US, ua: IPHONE },
      { offset: 4, at: '2024-02-29T23:59:59Z', ip: null, qr: true },
      { offset: 5, at: '2024-03-01T00:00:00Z', ip: SE, longUrl: 'https://example.com/b' },
      { offset: 6, at: '2024-03-01T11:58:30Z', ip: GB, longUrl: 'https://example.com/b' },
      { offset: 7, at: '2024-03-01T11:59:10Z', ip: GB, ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
      { offset: 8, at: '2024-03-01T11:59:20Z', ip: GB, bot: true },
    ];
    await aggregator()(
      batchOf(
        0,
        clicks.map((c) => message(link, c)),
      ),
    );
  });

  it('answers the engagements of each day, most recent first, zeros included', async () => {
    const answer = await reports.engagements(
      linkScope(link),
      query({ unit: 'day', units: '6', unit_reference: '2024-03-01T12:00:00Z' }),
      since,
    );
    expect(answer.unit_reference).toBe('2024-03-01T12:00:00+0000');
    expect(
      answer.engagements.map((e) => [e.date, e.engagements.clicks, e.engagements.scans, e.engagement_count]),
    ).toEqual([
      ['2024-03-01T00:00:00+0000', 2, 0, 2],
      ['2024-02-29T00:00:00+0000', 2, 1, 3], // the leap day
      ['2024-02-28T00:00:00+0000', 1, 0, 1],
      ['2024-02-27T00:00:00+0000', 0, 0, 0],
      ['2024-02-26T00:00:00+0000', 1, 0, 1],
      ['2024-02-25T00:00:00+0000', 0, 0, 0],
    ]);
  });

  it('starts units=-1 at the creation of the link', async () => {
    const answer = await reports.series(
      linkScope(link),
      query({ unit: 'day', unit_reference: '2024-03-01T12:00:00Z' }),
      since,
      'clicks',
    );
    expect(answer.units).toBe(-1);
    expect(answer.data.map((d) => d.count)).toEqual([2, 2, 1, 0, 1]);
  });

  it('starts units=-1 at the oldest data when it is older than the link, read with the series', async () => {
    const days = query({ unit: 'day', unit_reference: '2024-03-01T12:00:00Z' });
    // Created after its first clicks (imported or replayed): the series starts with the first day of data.
    const began = Date.parse('2024-02-29T08:00:00Z');
    expect(await reports.since(linkScope(link), began)).toBe(Date.parse('2024-02-26T00:00:00Z'));
    expect((await reports.series(linkScope(link), days, { began }, 'clicks')).data.map((d) => d.count)).toEqual([
      2, 2, 1, 0, 1,
    ]);
    expect((await reports.engagementsSummary(linkScope(link), days, { began })).engagements).toEqual({
      lib_button_clicks: 0,
      clicks: 6,
      scans: 1,
    });
    const weeks = await reports.engagements(
      linkScope(link),
      query({ unit: 'week', unit_reference: '2024-03-01T12:00:00Z' }),
      { began: null },
    );
    expect(weeks.engagements.map((e) => [e.date, e.engagement_count])).toEqual([['2024-02-26T00:00:00+0000', 7]]);
    const late = await reports.series(
      linkScope(link),
      query({ unit: 'month', unit_reference: '2024-01-15T00:00:00Z' }),
      { began },
      'clicks',
    );
    expect(late.data).toEqual([]);
  });

  it('starts weeks on Monday and months on the 1st', async () => {
    const weeks = await reports.series(
      linkScope(link),
      query({ unit: 'week', units: '2', unit_reference: '2024-03-01T12:00:00Z' }),
      since,
      'engagements',
    );
    // 2024-02-26 is a Monday: every click of the stream is in its week.
    expect(weeks.data).toEqual([
      { ts: '2024-02-26T00:00:00+0000', count: 7 },
      { ts: '2024-02-19T00:00:00+0000', count: 0 },
    ]);
    const months = await reports.series(
      linkScope(link),
      query({ unit: 'month', units: '3', unit_reference: '2024-03-01T12:00:00Z' }),
      since,
      'engagements',
    );
    expect(months.data).toEqual([
      { ts: '2024-03-01T00:00:00+0000', count: 2 },
      { ts: '2024-02-01T00:00:00+0000', count: 5 },
      { ts: '2024-01-01T00:00:00+0000', count: 0 },
    ]);
  });

  it('reads an offset in unit_reference as the instant it names', async () => {
    // 01:00 at +02:00 is 23:00 UTC on the leap day: the last day is 29 February.
    const answer = await reports.series(
      linkScope(link),
      query({ unit: 'day', units: '2', unit_reference: '2024-03-01T01:00:00+02:00' }),
      since,
      'engagements',
    );
    expect(answer.unit_reference).toBe('2024-02-29T23:00:00+0000');
    expect(answer.data).toEqual([
      { ts: '2024-02-29T00:00:00+0000', count: 3 },
      { ts: '2024-02-28T00:00:00+0000', count: 1 },
    ]);
    const minutes = await reports.series(
      linkScope(link),
      query({ unit: 'minute', units: '3', unit_reference: '2024-03-01T11:59:59Z' }),
      since,
      'clicks',
    );
    expect(minutes.data).toEqual([
      { ts: '2024-03-01T11:59:00+0000', count: 0 },
      { ts: '2024-03-01T11:58:00+0000', count: 1 },
      { ts: '2024-03-01T11:57:00+0000', count: 0 },
    ]);
    const hours = await reports.series(
      linkScope(link),
      query({ unit: 'hour', units: '1', unit_reference: '2024-03-01T11:00:00-00:30' }),
      since,
      'clicks',
    );
    expect(hours.data).toEqual([{ ts: '2024-03-01T11:00:00+0000', count: 1 }]);
  });

  it('counts bots apart and leaves them out of the metrics', async () => {
    expect(await summary(link)).toEqual({ lib_button_clicks: 0, clicks: 2, scans: 0 });
    const docs = await createAnalyticsStore(mongo).buckets(
      linkScope(link),
      'month',
      Date.parse('2024-03-01T00:00:00Z'),
      Date.parse('2024-03-01T00:00:00Z'),
      ['n'],
    );
    expect(docs[0]!.n).toEqual({ clicks: 2, bots: 2 });
  });

  it('breaks clicks down by country, city, device and referrer', async () => {
    const q = query({ unit: 'month', units: '2', unit_reference: '2024-03-01T12:00:00Z' });
    const countries = await reports.faceted(linkScope(link), q, since, {
      kind: 'clicks',
      facet: 'country',
      name: 'countries',
    });
    expect(countries).toEqual({
      unit: 'month',
      units: 2,
      unit_reference: '2024-03-01T12:00:00+0000',
      facet: 'countries',
      metrics: [
        { clicks: 3, value: 'GB' },
        { clicks: 2, value: 'SE' },
        { clicks: 1, value: 'US' },
      ],
    });
    const cities = await reports.cities(linkScope(link), { ...q, size: 1 }, since, 'clicks');
    expect(cities.metrics).toEqual([
      { clicks: 3, city: 'Bracknell', subregion: 'Bracknell Forest', region: 'England', country: 'GB' },
    ]);
    expect(cities.other_metrics).toEqual({ other_city_clicks: 2, no_city_clicks: 1 });
    const devices = await reports.faceted(linkScope(link), q, since, {
      kind: 'clicks',
      facet: 'device',
      name: 'devices',
      item: 'device_type',
    });
    expect(devices.metrics).toEqual([
      { clicks: 4, device_type: 'Desktop' },
      { clicks: 2, device_type: 'Mobile' },
    ]);
    const referrers = await reports.faceted(linkScope(link), q, since, {
      kind: 'clicks',
      facet: 'referrer',
      name: 'referrers',
    });
    expect(referrers.metrics).toEqual([
      { clicks: 3, value: 'direct' },
      { clicks: 2, value: 'https://t.co/abc' },
      { clicks: 1, value: 'https://www.facebook.com/' },
    ]);
    const domains = await reports.faceted(linkScope(link), { ...q, size: 2 }, since, {
      kind: 'clicks',
      facet: 'referring_domain',
      name: 'referring_domains',
    });
    expect(domains.metrics).toEqual([
      { clicks: 3, value: 'direct' },
      { clicks: 2, value: 't.co' },
    ]);
    const names = await reports.faceted(linkScope(link), q, since, {
      kind: 'clicks',
      facet: 'referrer_name',
      name: 'referrer_name',
    });
    expect(names.metrics.map((m) => m['value'])).toEqual(['direct', 'Twitter', 'Facebook']);
    const byNetwork = await reports.referrersByNetwork(linkScope(link), q, since, 'clicks');
    expect(byNetwork.referrers_by_domain).toEqual([
      { network: 'direct', referrers: [{ key: 'direct', value: 3 }] },
      { network: 'twitter', referrers: [{ key: 'https://t.co/abc', value: 2 }] },
      { network: 'facebook', referrers: [{ key: 'https://www.facebook.com/', value: 1 }] },
    ]);
    const destinations = await reports.faceted(linkScope(link), q, since, {
      kind: 'clicks',
      facet: 'destination',
      name: 'clicks_by_destination',
      limit: false,
    });
    expect(destinations.metrics).toEqual([
      { clicks: 4, value: 'https://example.com/a' },
      { clicks: 2, value: 'https://example.com/b' },
    ]);
  });

  it('rolls the group up and ranks its links', async () => {
    const q = query({ unit: 'day', units: '-1', unit_reference: '2024-03-01T12:00:00Z' });
    expect(await reports.topLinks(groupScope(link), q, since)).toEqual([{ value: link.id, count: 7 }]);
    const networks = await reports.faceted(groupScope(link), q, since, {
      kind: 'clicks',
      facet: 'referring_network',
      name: 'referring_networks',
    });
    expect(networks.metrics).toEqual([
      { clicks: 3, value: 'direct' },
      { clicks: 2, value: 'twitter' },
      { clicks: 1, value: 'facebook' },
    ]);
  });
});

describe('counted once, however it arrives', () => {
  const day = { unit: 'day', units: '1', unit_reference: '2024-03-01T12:00:00Z' };
  const stream = (link: { id: string; group: string }, from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) =>
      message(link, {
        offset: from + i,
        at: `2024-03-01T10:${String((from + i) % 60).padStart(2, '0')}:00Z`,
        ip: i % 2 ? GB : SE,
      }),
    );

  it('a batch delivered again, whole or cut differently', async () => {
    const link = newLink();
    const all = stream(link, 100, 130);
    const ingest = aggregator();
    await ingest(batchOf(1, all.slice(0, 20)));
    await ingest(batchOf(1, all.slice(0, 20)));
    await ingest(batchOf(1, all.slice(5, 25)));
    await ingest(batchOf(1, all.slice(10, 30)));
    await ingest(batchOf(1, all));
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 30, scans: 0 });
    const countries = await reports.faceted(linkScope(link), query(day), null, {
      kind: 'clicks',
      facet: 'country',
      name: 'countries',
    });
    expect(countries.metrics).toEqual([
      { clicks: 15, value: 'GB' },
      { clicks: 15, value: 'SE' },
    ]);
  });

  it('a crash after some of a batch buckets were written', async () => {
    const link = newLink();
    const all = stream(link, 0, 40);
    const source = 'test.links.clicks:2';
    // The first attempt writes half of its buckets (the link's), then the process dies.
    const items = all
      .slice(0, 30)
      .map((m) => ({ offset: Number(m.offset), event: engagementOfClick(m.meta.id, m.value as ShortlinkClicked) }));
    const plan = planBatch(items, { facets, now: NOW, retention: DEFAULT_RETENTION, countBots: false });
    const half = { ...plan, buckets: new Map([...plan.buckets].filter(([id]) => id.startsWith('l|'))) };
    await writer.apply(source, 29, half);
    // The next owner gets the partition from the last commit, in other cuts.
    const ingest = aggregator();
    await ingest(batchOf(2, all.slice(0, 12)));
    await ingest(batchOf(2, all.slice(12, 40)));
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 40, scans: 0 });
    const group = await reports.engagementsSummary(groupScope(link), query(day), null);
    expect(group.total_engagements).toBe(40);
  });

  it('two members writing the same partition at once (a rebalance with a zombie)', async () => {
    const link = newLink();
    const all = stream(link, 500, 560);
    // Every member starts from the last committed offset (500) and goes on in order, each in its own cuts.
    const member = (cuts: number[]) => async () => {
      const ingest = aggregator();
      for (let i = 0; i < cuts.length - 1; i++) await ingest(batchOf(3, all.slice(cuts[i], cuts[i + 1])));
    };
    await Promise.all([member([0, 60])(), member([0, 40, 60])(), member([0, 20, 25, 60])()]);
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 60, scans: 0 });
  });

  it('a producer repeat of a click at a later offset, and partitions that share a bucket', async () => {
    const link = newLink();
    const first = [
      message(link, { offset: 7, at: '2024-03-01T10:00:00Z', id: 'r1:boot:1' }),
      message(link, { offset: 8, at: '2024-03-01T10:00:01Z', id: 'r1:boot:2' }),
    ];
    // The redirector re-published both (its acknowledgement was lost) and one more, in another partition's log too.
    const repeat = [
      message(link, { offset: 9, at: '2024-03-01T10:00:00Z', id: 'r1:boot:1' }),
      message(link, { offset: 10, at: '2024-03-01T10:00:01Z', id: 'r1:boot:2' }),
      message(link, { offset: 11, at: '2024-03-01T10:00:02Z', id: 'r1:boot:3' }),
    ];
    const other = [message(link, { offset: 7, at: '2024-03-01T10:00:03Z', id: 'r2:boot:1' })];
    const ingest = aggregator();
    await ingest(batchOf(4, first));
    await ingest(batchOf(4, repeat));
    await ingest(batchOf(5, other));
    await ingest(batchOf(4, [...first, ...repeat])); // and the whole partition once more
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 4, scans: 0 });
  });
});

describe('batches held while a partition catches up', () => {
  const day = { unit: 'day', units: '1', unit_reference: '2024-03-01T12:00:00Z' };
  const stream = (link: { id: string; group: string }, from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) =>
      message(link, {
        offset: from + i,
        at: `2024-03-01T10:${String((from + i) % 60).padStart(2, '0')}:00Z`,
        id: `r9:${link.id}:${from + i}`,
      }),
    );
  const held = (partition: number, messages: Array<BatchMessage<AggregatedType>>, behind: number) =>
    batchOf(partition, messages, 'test.links.clicks', behind);

  it('writes nothing until the partition has caught up, then everything held, once', async () => {
    const link = newLink();
    const all = stream(link, 0, 60);
    const ingest = aggregator();
    expect(await ingest(held(6, all.slice(0, 20), 40))).toBe('hold');
    // A producer repeat inside the held batches is still dropped.
    const repeat = message(link, { offset: 25, at: '2024-03-01T10:05:00Z', id: all[5]!.meta.id });
    expect(await ingest(held(6, [...all.slice(20, 25), repeat, ...all.slice(26, 40)], 20))).toBe('hold');
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 0, scans: 0 });
    // The same batch again (a retry) adds nothing; the last one writes all.
    expect(await ingest(held(6, all.slice(20, 40), 20))).toBe('hold');
    expect(await ingest(held(6, all.slice(40, 60), 0))).toBe('written');
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 59, scans: 0 });
  });

  it("a fold planned while the one before it is still being written leaves out that one's repeats", async () => {
    const link = newLink();
    const all = stream(link, 200, 240);
    const ingest = createAggregator({
      writer,
      sightings,
      facets,
      retention: DEFAULT_RETENTION,
      countBots: false,
      now: () => NOW,
    });
    const first = await ingest(held(8, all.slice(0, 20), 0));
    // The consumer reads on before the first fold's writes have landed: a producer repeat of one of its clicks
    // (not marked as counted yet) comes in the next fold.
    const repeat = message(link, { offset: 220, at: '2024-03-01T10:05:00Z', id: all[3]!.meta.id });
    const second = await ingest(held(8, [repeat, ...all.slice(21, 40)], 0));
    if (first === 'hold' || second === 'hold') throw new Error('a caught-up partition is written, not held');
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 0, scans: 0 });
    await first.finish();
    await second.finish();
    await second.finish(); // a retried finish adds nothing
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 39, scans: 0 });
  });

  it('a fold whose sightings could not be read is counted whole when its writing is tried again', async () => {
    const link = newLink();
    const all = stream(link, 300, 340);
    let failures = 0;
    const flaky: Sightings = {
      seen: async (ids) => {
        if (failures-- > 0) throw new Error('redis away');
        return sightings.seen(ids);
      },
      mark: (ids) => sightings.mark(ids),
    };
    const ingest = createAggregator({
      writer,
      sightings: flaky,
      facets,
      retention: DEFAULT_RETENTION,
      countBots: false,
      now: () => NOW,
    });
    expect(await ingest(held(9, all.slice(0, 20), 20))).toBe('hold');
    // A repeat of a click of the fold, in its last batch: one of them counts.
    const last = await ingest(
      held(
        9,
        [
          ...all.slice(20, 30),
          message(link, { offset: 330, at: '2024-03-01T10:05:00Z', id: all[25]!.meta.id }),
          ...all.slice(31, 40),
        ],
        0,
      ),
    );
    if (last === 'hold') throw new Error('a caught-up partition is written, not held');
    failures = 1;
    await expect(last.finish()).rejects.toThrow('redis away');
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 0, scans: 0 });
    await last.finish();
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 39, scans: 0 });
  });

  it('a repeat of a click counted in an earlier fold, found once the fold is written', async () => {
    const link = newLink();
    const all = stream(link, 400, 420);
    const ingest = aggregator();
    expect(await ingest(held(10, all.slice(0, 10), 0))).toBe('written');
    // Two repeats of counted clicks at later offsets, one alone in a cell of its own (another minute).
    const repeats = [
      message(link, { offset: 410, at: '2024-03-01T10:41:00Z', id: all[1]!.meta.id }),
      message(link, { offset: 411, at: '2024-03-01T11:59:00Z', id: all[2]!.meta.id }),
    ];
    expect(await ingest(held(10, [...repeats, ...all.slice(12, 20)], 0))).toBe('written');
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 18, scans: 0 });
    const hours = await reports.engagements(
      linkScope(link),
      query({ unit: 'hour', units: '3', unit_reference: '2024-03-01T12:00:00Z' }),
      null,
    );
    const clicksAt = (hour: string) =>
      hours.engagements.find((e) => e.date.startsWith(`2024-03-01T${hour}`))?.engagements.clicks;
    expect([clicksAt('10'), clicksAt('11')]).toEqual([18, 0]);
  });

  it('a crash while batches are held, a zombie that flushes them late, and a cap on what is held', async () => {
    const link = newLink();
    const all = stream(link, 100, 160);
    const zombie = aggregator();
    await zombie(held(7, all.slice(0, 30), 30));
    // The next owner starts again from the last commit, in other cuts, holding at most 25 events.
    const next = aggregator({ maxBatch: 25 });
    expect(await next(held(7, all.slice(0, 20), 40))).toBe('hold');
    expect(await next(held(7, all.slice(20, 45), 15))).toBe('written');
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 45, scans: 0 });
    // The zombie goes on from where it was and writes what it held with the rest.
    await zombie(held(7, all.slice(30, 60), 0));
    await next(held(7, all.slice(45, 60), 0));
    expect(await summary(link, day)).toEqual({ lib_button_clicks: 0, clicks: 60, scans: 0 });
    const group = await reports.engagementsSummary(groupScope(link), query(day), null);
    expect(group.total_engagements).toBe(60);
  });
});

describe('through Kafka', () => {
  it('two aggregators split the partitions and count every click once', async () => {
    const name = uniqueName('agg');
    const env = isolatedAppEnv(name, { KAFKA_SESSION_TIMEOUT_MS: '6000', ANALYTICS_MAX_BATCH: '50' });
    const logger = testLogger(name);
    const settings = aggregatorConfig.read(env);
    const aggregators = [
      await startService('analytics-aggregator', buildAggregator, { settings, logger }),
      await startService('analytics-aggregator', buildAggregator, { settings, logger }),
    ];
    const kafka = createKafka({
      brokers: settings.kafka.brokers,
      clientId: name,
      logger,
      topicPrefix: settings.kafka.topicPrefix,
    });
    const publisher = createPublisher(kafka, { source: '/test' });
    await publisher.connect();
    const store = await connectMongo({ url: settings.mongo.url, dbName: settings.mongo.db, appName: name });
    try {
      await Promise.all(aggregators.map((a) => a.service.ready?.()));
      const links = Array.from({ length: 24 }, (_, i) => ({ id: `sho.rt/k${i}`, group: 'Bgroup1' }));
      const now = Date.now();
      const clicks = links.flatMap((link, i) =>
        Array.from({ length: 1 + (i % 5) }, (_, j) =>
          message(link, { offset: 0, at: new Date(now - j * 1000).toISOString(), id: `${link.id}:${j}` }),
        ),
      );
      const send = (list: typeof clicks) =>
        publisher.publishMany(
          list.map((m) => ({
            topic: LINKS_TOPICS.clicks,
            key: m.key!,
            id: m.meta.id,
            type: MessageTypeNames.ShortlinkClicked,
            value: m.value as ShortlinkClicked,
          })),
        );
      await send(clicks);
      await send(clicks.slice(0, 10)); // a re-published batch
      await publisher.publish({
        topic: LINKS_TOPICS.events,
        key: 'sho.rt/k0',
        type: MessageTypeNames.ShortlinkCreated,
        value: {
          id: 'sho.rt/k0',
          organization_id: 'org',
          group_guid: 'Bgroup1',
          long_url: 'https://example.com/',
          title: null,
          tags: [],
          archived: false,
          custom: false,
          redirect_status: 301,
          expiration_at: null,
          created_by: 'u',
          occurred_at: now,
        },
      });
      const read = createReports(createAnalyticsStore(store));
      const q = readMetricsQuery({ unit: 'day', units: '2' }, { now: Date.now() });
      if (!q.ok) throw new Error('query');
      const total = await waitFor(
        async () => {
          const summary = await read.engagementsSummary({ kind: 'group', key: 'Bgroup1' }, q.value, null);
          return summary.total_engagements >= clicks.length && summary;
        },
        { what: `${clicks.length} clicks counted`, timeoutMs: 30_000 },
      );
      expect(total.engagements.clicks).toBe(clicks.length);
      const shortens = await waitFor(
        async () =>
          (await read.shortenCounts({ kind: 'group', key: 'Bgroup1' }, q.value, null)).metrics.reduce(
            (s, m) => s + m.value,
            0,
          ) || false,
      );
      expect(shortens).toBe(1);
      const top = await read.topLinks({ kind: 'group', key: 'Bgroup1' }, q.value, null);
      expect(top.slice(0, 2).map((t) => t.count)).toEqual([5, 5]);
    } finally {
      await publisher.disconnect();
      for (const a of aggregators) await a.stop();
      await store.dropDatabase().catch(() => undefined);
      await store.close();
    }
  });
});
