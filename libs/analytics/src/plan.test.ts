import { describe, expect, it } from 'vitest';
import type { Engagement } from './events.js';
import type { FacetReader } from './facets.js';
import { DEFAULT_RETENTION, bucketId, createPlanner, deltaAfter, planBatch, type PlanOptions } from './plan.js';
import { addUnits } from './buckets.js';
import { readMetricsQuery, queryBuckets } from './query.js';
import { coverRange } from './reports.js';
import { readReferrer } from './referrer.js';

const facets: FacetReader = (e) => ({
  place:
    e.clientIp === '81.2.69.160'
      ? { country: 'GB', region: 'England', subregion: 'Bracknell Forest', city: 'Bracknell' }
      : { country: null, region: null, subregion: null, city: null },
  device: 'Desktop',
  os: 'Windows',
  browser: 'Chrome',
  referrer: readReferrer(e.referrer),
  bot: e.userAgent === 'bot',
});
const now = Date.parse('2024-03-01T12:00:00Z');
const options: PlanOptions = { facets, now, retention: DEFAULT_RETENTION, countBots: false };

const click = (n: number, at: string, extra: Partial<Engagement> = {}): { offset: number; event: Engagement } => ({
  offset: n,
  event: {
    type: 'engagement',
    id: `c${n}`,
    at: Date.parse(at),
    kind: 'clicks',
    linkId: 'sho.rt/abc',
    groupGuid: 'Bg1',
    longUrl: 'https://example.com/',
    qrcodeId: null,
    referrer: null,
    userAgent: 'Mozilla',
    clientIp: '81.2.69.160',
    bot: false,
    ...extra,
  },
});

describe('pre-aggregation', () => {
  it('makes one update per distinct bucket, not per event', () => {
    const plan = planBatch(
      [click(1, '2024-03-01T11:00:10Z'), click(2, '2024-03-01T11:00:50Z'), click(3, '2024-03-01T11:01:10Z')],
      options,
    );
    // link and group: minutes 11:00 and 11:01, hour, day, week, month each.
    expect(plan.buckets.size).toBe(2 * 6);
    expect(plan.counted).toBe(3);
    const day = plan.buckets.get(
      bucketId({ kind: 'link', key: 'sho.rt/abc' }, 'day', Date.parse('2024-03-01T00:00:00Z')),
    )!;
    expect(deltaAfter(day, null)).toEqual({
      'n.clicks': 3,
      'f.clicks.country.GB': 3,
      'f.clicks.city.["Bracknell","Bracknell Forest","England","GB"]': 3,
      'f.clicks.device.Desktop': 3,
      'f.clicks.os.Windows': 3,
      'f.clicks.browser.Chrome': 3,
      'f.clicks.referrer.direct': 3,
      'f.clicks.referrer_name.direct': 3,
      'f.clicks.referring_domain.direct': 3,
      'f.clicks.referring_network.direct': 3,
      'f.clicks.referrer_by_network.["direct","direct"]': 3,
      'f.clicks.destination.https://example%2ecom/': 3,
      // The day keeps its hours' counters, for time series that read few documents.
      'h.11.clicks': 3,
    });
  });

  it('counts only the events past a bucket watermark', () => {
    const plan = planBatch(
      [click(7, '2024-03-01T11:00:10Z'), click(5, '2024-03-01T11:00:20Z'), click(9, '2024-03-01T11:00:30Z')],
      options,
    );
    const hour = plan.buckets.get(bucketId({ kind: 'group', key: 'Bg1' }, 'hour', Date.parse('2024-03-01T11:00:00Z')))!;
    expect(hour.firstOffset).toBe(5);
    expect(deltaAfter(hour, 4)?.['n.clicks']).toBe(3);
    expect(deltaAfter(hour, 7)?.['n.clicks']).toBe(1);
    expect(deltaAfter(hour, 9)).toBeNull();
  });

  it('groups events with the same link, minute and facets, and still cuts them at any watermark', () => {
    const events = [
      click(10, '2024-03-01T11:00:10Z'),
      click(11, '2024-03-01T11:00:20Z', { clientIp: '8.8.8.8' }),
      click(12, '2024-03-01T11:00:30Z'),
      click(13, '2024-03-01T11:01:10Z'),
      click(14, '2024-03-01T11:00:40Z'),
      click(15, '2024-03-01T11:00:50Z', { linkId: 'sho.rt/other' }),
    ];
    const plan = planBatch(events, options);
    const hour = plan.buckets.get(bucketId({ kind: 'group', key: 'Bg1' }, 'hour', Date.parse('2024-03-01T11:00:00Z')))!;
    expect(hour.parts.map((p) => p.offsets)).toEqual([[10, 12, 14], [11], [13], [15]]);
    expect(deltaAfter(hour, null)).toMatchObject({
      'n.clicks': 6,
      'f.clicks.country.GB': 5,
      'm.00.clicks': 5,
      'm.01.clicks': 1,
      'f.clicks.link.sho%2ert/abc': 5,
    });
    expect(deltaAfter(hour, 11)).toMatchObject({
      'n.clicks': 4,
      'f.clicks.country.GB': 4,
      'm.00.clicks': 3,
      'm.01.clicks': 1,
      'f.clicks.link.sho%2ert/other': 1,
    });
    expect(deltaAfter(hour, 12)).toMatchObject({ 'n.clicks': 3, 'm.00.clicks': 2, 'm.01.clicks': 1 });
    expect(deltaAfter(hour, 13)?.['n.clicks']).toBe(2);
    expect(deltaAfter(hour, 15)).toBeNull();
    const minute = plan.buckets.get(
      bucketId({ kind: 'link', key: 'sho.rt/abc' }, 'minute', Date.parse('2024-03-01T11:00:00Z')),
    )!;
    expect(deltaAfter(minute, null)?.['n.clicks']).toBe(4);
  });

  it('takes out events added before (repeats found later), once, and leaves no bucket for a cell left empty', () => {
    const planner = createPlanner(options);
    const [a, b, c] = [
      click(20, '2024-03-01T11:00:10Z'),
      click(21, '2024-03-01T11:00:20Z'),
      click(22, '2024-03-01T11:05:00Z', { userAgent: 'bot' }),
    ];
    const cells = [a, b, c].map((i) => planner.addOne(i.offset, i.event));
    planner.remove(20, cells[0]!);
    planner.remove(20, cells[0]!);
    planner.remove(22, cells[2]!);
    const plan = planner.plan();
    expect({ counted: plan.counted, bots: plan.bots }).toEqual({ counted: 1, bots: 0 });
    const hour = plan.buckets.get(
      bucketId({ kind: 'link', key: 'sho.rt/abc' }, 'hour', Date.parse('2024-03-01T11:00:00Z')),
    )!;
    expect(hour.parts.map((p) => p.offsets)).toEqual([[21]]);
    expect(deltaAfter(hour, null)).toMatchObject({ 'n.clicks': 1, 'm.00.clicks': 1 });
    expect(
      plan.buckets.has(bucketId({ kind: 'link', key: 'sho.rt/abc' }, 'minute', Date.parse('2024-03-01T11:05:00Z'))),
    ).toBe(false);
  });

  it('counts bots apart, and with people when asked', () => {
    const events = [
      click(1, '2024-03-01T11:00:10Z', { bot: true }),
      click(2, '2024-03-01T11:00:10Z', { userAgent: 'bot' }),
      click(3, '2024-03-01T11:00:10Z'),
    ];
    const plan = planBatch(events, options);
    expect([plan.counted, plan.bots]).toEqual([1, 2]);
    const month = plan.buckets.get(
      bucketId({ kind: 'link', key: 'sho.rt/abc' }, 'month', Date.parse('2024-03-01T00:00:00Z')),
    )!;
    expect(deltaAfter(month, null)).toMatchObject({ 'n.bots': 2, 'n.clicks': 1 });
    const all = planBatch(events, { ...options, countBots: true });
    const month2 = all.buckets.get(month.id)!;
    expect(deltaAfter(month2, null)).toMatchObject({ 'n.bots': 2, 'n.clicks': 3 });
  });

  it('leaves events older than a unit retention out of that unit', () => {
    const plan = planBatch([click(1, '2024-02-20T11:00:00Z')], options);
    expect([...plan.buckets.values()].map((b) => b.unit).sort()).toEqual([
      'day',
      'day',
      'hour',
      'hour',
      'month',
      'month',
      'week',
      'week',
    ]);
    const hour = [...plan.buckets.values()].find((b) => b.unit === 'hour')!;
    expect(hour.expiresAt).toBe(Date.parse('2024-02-20T11:00:00Z') + DEFAULT_RETENTION.hour!);
  });

  it('counts shortens in the group only', () => {
    const plan = planBatch(
      [{ offset: 3, event: { type: 'shorten', id: 'e1', at: now, groupGuid: 'Bg1', linkId: 'sho.rt/x' } }],
      options,
    );
    expect([...plan.buckets.keys()].every((id) => id.startsWith('g|Bg1|'))).toBe(true);
    expect(deltaAfter([...plan.buckets.values()][0]!, null)).toEqual({ 'n.shortens': 1 });
  });

  it('counts scans, and a QR code once scans name it', () => {
    const plan = planBatch([click(1, '2024-03-01T11:00:10Z', { kind: 'scans', qrcodeId: 'qr1' })], options);
    const qr = plan.buckets.get(bucketId({ kind: 'qr', key: 'qr1' }, 'day', Date.parse('2024-03-01T00:00:00Z')))!;
    expect(deltaAfter(qr, null)).toMatchObject({ 'n.scans': 1, 'f.scans.country.GB': 1 });
  });
});

describe('metrics query parameters', () => {
  const read = (q: Record<string, unknown>) => readMetricsQuery(q, { now });

  it('defaults unit to day, units to -1, unit_reference to now and size to 50', () => {
    expect(read({})).toEqual({ ok: true, value: { unit: 'day', units: -1, reference: now, size: 50 } });
  });

  it('refuses what it cannot read, naming each parameter', () => {
    const r = read({ unit: 'year', units: '0', size: '-3', unit_reference: '2024-02-30' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems.map((p) => p.field)).toEqual(['unit', 'units', 'size', 'unit_reference']);
    expect(read({ units: 'abc' }).ok).toBe(false);
    expect(read({ unit: ['day', 'hour'] }).ok).toBe(false);
  });

  it('covers units buckets back from the reference, or all since the beginning', () => {
    const q = (units: number, unit: 'day' | 'week' = 'day') => ({
      unit,
      units,
      reference: Date.parse('2024-03-01T10:00:00+05:00'),
      size: 50,
    });
    expect(queryBuckets(q(3), null).map((t) => new Date(t).toISOString().slice(0, 10))).toEqual([
      '2024-03-01',
      '2024-02-29',
      '2024-02-28',
    ]);
    expect(queryBuckets(q(-1), Date.parse('2024-02-27T23:59:00Z'))).toHaveLength(4);
    expect(queryBuckets(q(-1), null)).toEqual([]);
    expect(
      queryBuckets(q(-1, 'week'), Date.parse('2024-02-19T00:00:00Z')).map((t) =>
        new Date(t).toISOString().slice(0, 10),
      ),
    ).toEqual(['2024-02-26', '2024-02-19']);
  });
});

describe('covering a range with few buckets', () => {
  const at = (iso: string) => Date.parse(iso);
  const show = (tiles: Array<{ unit: string; start: number }>) =>
    tiles.map((t) => `${t.unit} ${new Date(t.start).toISOString().slice(0, 16)}`);

  it('reads a year of days as months, weeks and days that tile it exactly', () => {
    const tiles = coverRange(at('2023-03-02T00:00:00Z'), at('2024-03-02T00:00:00Z'), ['month', 'week', 'day']);
    expect(tiles.length).toBeLessThan(25);
    let covered = 0;
    for (const t of tiles) covered += addUnits(t.unit as 'day', t.start, 1) - t.start;
    expect(covered).toBe(at('2024-03-02T00:00:00Z') - at('2023-03-02T00:00:00Z'));
    expect(show(tiles).slice(0, 3)).toEqual(['day 2023-03-02T00:00', 'day 2023-03-03T00:00', 'day 2023-03-04T00:00']);
    expect(show(tiles)).toContain('week 2023-03-06T00:00');
    expect(show(tiles)).toContain('month 2024-02-01T00:00');
    expect(show(tiles).at(-1)).toBe('day 2024-03-01T00:00');
  });

  it('uses only the requested unit when nothing coarser fits', () => {
    expect(
      show(coverRange(at('2024-03-01T10:00:00Z'), at('2024-03-01T12:00:00Z'), ['month', 'week', 'day', 'hour'])),
    ).toEqual(['hour 2024-03-01T10:00', 'hour 2024-03-01T11:00']);
  });
});
