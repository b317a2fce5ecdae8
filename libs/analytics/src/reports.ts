import { addUnits, bucketStart, formatTime, type Unit } from './buckets.js';
import { ENGAGEMENT_KINDS, type EngagementKind } from './events.js';
import { decodeKey, readCityKey, readNetworkReferrerKey, type Facet } from './facets.js';
import type { Scope } from './plan.js';
import { queryBuckets, type MetricsQuery } from './query.js';
import type { AnalyticsStore } from './read-store.js';
import type { BucketDoc, Counters } from './store.js';

/** Values and counts, most first (ties by value, so answers are stable). */
export type Ranked = Array<{ value: string; count: number }>;

const rank = (totals: Map<string, number>): Ranked =>
  [...totals]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));

const engagementsOf = (n: Counters | undefined) => ({
  lib_button_clicks: n?.['lib_button_clicks'] ?? 0,
  clicks: n?.['clicks'] ?? 0,
  scans: n?.['scans'] ?? 0,
});
const totalOf = (n: Counters | undefined) => ENGAGEMENT_KINDS.reduce((sum, kind) => sum + (n?.[kind] ?? 0), 0);

/** What a time series counts in each bucket. */
export type SeriesCounter = 'engagements' | EngagementKind | 'shortens';
const counterOf = (counter: SeriesCounter) => (n: Counters | undefined) =>
  counter === 'engagements' ? totalOf(n) : (n?.[counter] ?? 0);

const pad = (n: number) => String(n).padStart(2, '0');

/** The coarser documents a unit's counters are read from (see `childCounters` in plan.ts). */
const SERIES_SOURCE: Record<Unit, { unit: Unit; field: 'm' | 'h' | 'd' | 'w' | 'n' }> = {
  minute: { unit: 'hour', field: 'm' },
  hour: { unit: 'day', field: 'h' },
  day: { unit: 'month', field: 'd' },
  week: { unit: 'month', field: 'w' },
  month: { unit: 'month', field: 'n' },
};
const childKey = (unit: Unit, start: number) => {
  const d = new Date(start);
  if (unit === 'minute') return pad(d.getUTCMinutes());
  if (unit === 'hour') return pad(d.getUTCHours());
  if (unit === 'day') return pad(d.getUTCDate());
  return d.toISOString().slice(0, 10);
};

/** The units a facet answer may be read from, coarsest first: any that tiles the range exactly. */
const COVER_UNITS: Record<Unit, Unit[]> = {
  month: ['month'],
  week: ['month', 'week', 'day'],
  day: ['month', 'week', 'day'],
  hour: ['month', 'week', 'day', 'hour'],
  minute: ['month', 'week', 'day', 'hour', 'minute'],
};

/**
 * The fewest buckets that tile `[from, to)` exactly: whole months inside it, then whole weeks, days, hours and
 * minutes for what is left at either end. Every unit counts every event, so a year of days is read as about a
 * dozen months and a few weeks and days rather than 365 documents.
 */
export function coverRange(from: number, to: number, units: readonly Unit[]): Array<{ unit: Unit; start: number }> {
  if (from >= to || units.length === 0) return [];
  const [unit, ...finer] = units as [Unit, ...Unit[]];
  let first = bucketStart(unit, from);
  if (first < from) first = addUnits(unit, first, 1);
  const picked: number[] = [];
  let next = first;
  while (addUnits(unit, next, 1) <= to) {
    picked.push(next);
    next = addUnits(unit, next, 1);
  }
  if (picked.length === 0) return coverRange(from, to, finer);
  return [
    ...coverRange(from, first, finer),
    ...picked.map((start) => ({ unit, start })),
    ...coverRange(next, to, finer),
  ];
}

/**
 * Where `units=-1` starts (see {@link queryBuckets}): an instant, null (nowhere: an empty answer), or `began`,
 * when the scope began (a link's or group's creation), to be resolved against the scope's oldest data.
 */
export type Since = number | null | { began: number | null };

const fromBeginning = (since: Since): since is { began: number | null } => since !== null && typeof since === 'object';

/** The first day of the oldest month document's data, or when the scope began if that is earlier or it has none. */
function sinceOf(oldest: Pick<BucketDoc, 't' | 'd'> | undefined, began: number | null): number | null {
  const days = Object.keys(oldest?.d ?? {}).sort();
  if (!oldest || days.length === 0) return began;
  const first = oldest.t.getTime() + (Number(days[0]) - 1) * 86_400_000;
  return began === null ? first : Math.min(first, began);
}

/**
 * The metrics operations' answers, read from a scope's buckets. `since` is where `units=-1` starts (see
 * {@link Since}).
 */
export function createReports(store: AnalyticsStore) {
  const envelope = (query: MetricsQuery) => ({
    unit: query.unit,
    units: query.units,
    unit_reference: formatTime(query.reference),
  });

  /** Where `units=-1` starts for a scope: when it began or the day of its oldest data, whichever is first. */
  async function since(scope: Scope, began: number | null): Promise<number | null> {
    // Data older than the beginning is rare (imported or replayed clicks): only the months before it are read.
    const oldest = await store.oldestMonth(
      scope,
      began === null ? undefined : addUnits('month', bucketStart('month', began), 1),
    );
    return sinceOf(oldest ?? undefined, began);
  }

  const resolved = async (scope: Scope, given: Since): Promise<number | null> =>
    fromBeginning(given) ? since(scope, given.began) : given;

  /** The source documents' range of a series ending with the bucket that holds the reference. */
  function sourceRange(unit: Unit, newest: number) {
    const source = SERIES_SOURCE[unit];
    // A week's days may reach into the next month: read every month the newest week touches.
    return { source, to: bucketStart(source.unit, addUnits(unit, newest, 1) - 1) };
  }

  /** Each bucket's counters, from the coarser documents that hold them, by bucket start. */
  function countersIn(unit: Unit, starts: number[], docs: BucketDoc[]): Map<number, Counters> {
    const counters = new Map<number, Counters>();
    const source = SERIES_SOURCE[unit];
    // A bucket held by one document answers that document's counters (read-only); one held by two, their sum.
    const add = (start: number, n: Counters | undefined) => {
      if (!n) return;
      const prior = counters.get(start);
      if (!prior) {
        counters.set(start, n);
        return;
      }
      const sum = { ...prior };
      for (const [key, value] of Object.entries(n)) sum[key] = (sum[key] ?? 0) + (value ?? 0);
      counters.set(start, sum);
    };
    const byStart = new Map(docs.map((doc) => [doc.t.getTime(), doc]));
    for (const start of starts) {
      if (source.field === 'n') {
        add(start, byStart.get(start)?.n);
        continue;
      }
      const holder = bucketStart(source.unit, start);
      const key = childKey(unit, start);
      add(start, byStart.get(holder)?.[source.field]?.[key]);
      // Only a week reaches past the document that holds its start: its part in the next month.
      if (unit !== 'week') continue;
      const next = bucketStart(source.unit, addUnits(unit, start, 1) - 1);
      if (next !== holder) add(start, byStart.get(next)?.[source.field]?.[key]);
    }
    return counters;
  }

  /** Each of `starts`' counters (a series' buckets, most recent first), read from the documents that hold them. */
  async function countersOf(scope: Scope, unit: Unit, starts: number[]): Promise<Map<number, Counters>> {
    if (starts.length === 0) return new Map();
    const { source, to } = sourceRange(unit, starts[0]!);
    return countersIn(
      unit,
      starts,
      await store.buckets(scope, source.unit, bucketStart(source.unit, starts.at(-1)!), to, [source.field]),
    );
  }

  /**
   * The query's buckets, most recent first, with their counters. A series of days, weeks or months is read from
   * month documents, which also say where `units=-1` starts: one read of every month up to the reference's
   * serves both (the months before the scope began hold only older data, which `since` reads anyway).
   */
  async function seriesCounters(
    scope: Scope,
    query: MetricsQuery,
    given: Since,
  ): Promise<{ starts: number[]; counters: Map<number, Counters> }> {
    const { source, to } = sourceRange(query.unit, bucketStart(query.unit, query.reference));
    if (!fromBeginning(given) || source.unit !== 'month') {
      const starts = queryBuckets(query, await resolved(scope, given));
      return { starts, counters: await countersOf(scope, query.unit, starts) };
    }
    const docs = await store.buckets(scope, 'month', null, to, [...new Set(['d', source.field])]);
    const before = given.began === null ? Infinity : addUnits('month', bucketStart('month', given.began), 1);
    const oldest = docs.reduce<BucketDoc | undefined>(
      (first, doc) => (doc.t.getTime() < before && (!first || doc.t < first.t) ? doc : first),
      undefined,
    );
    const starts = queryBuckets(query, sinceOf(oldest, given.began));
    return { starts, counters: countersIn(query.unit, starts, docs) };
  }

  /** The documents that tile the query's buckets, with the given fields. */
  async function covering(scope: Scope, query: MetricsQuery, given: Since, fields: string[]): Promise<BucketDoc[]> {
    return coveringOf(scope, tilesOf(query, queryBuckets(query, await resolved(scope, given))), fields);
  }

  function tilesOf(query: MetricsQuery, starts: number[]) {
    return starts.length === 0
      ? []
      : coverRange(starts.at(-1)!, addUnits(query.unit, starts[0]!, 1), COVER_UNITS[query.unit]);
  }

  async function coveringOf(
    scope: Scope,
    tiles: Array<{ unit: Unit; start: number }>,
    fields: string[],
  ): Promise<BucketDoc[]> {
    // One `_id` range per run of consecutive tiles of a unit.
    const runs: Array<{ unit: Unit; from: number; to: number }> = [];
    for (const tile of tiles) {
      const last = runs.at(-1);
      if (last && last.unit === tile.unit && addUnits(tile.unit, last.to, 1) === tile.start) last.to = tile.start;
      else runs.push({ unit: tile.unit, from: tile.start, to: tile.start });
    }
    const docs = await Promise.all(runs.map((run) => store.buckets(scope, run.unit, run.from, run.to, fields)));
    return docs.flat();
  }

  function sumFacet(docs: BucketDoc[], kinds: readonly EngagementKind[], facet: Facet): Map<string, number> {
    const totals = new Map<string, number>();
    for (const doc of docs) {
      for (const kind of kinds) {
        for (const [key, count] of Object.entries(doc.f?.[kind]?.[facet] ?? {})) {
          const value = decodeKey(key);
          totals.set(value, (totals.get(value) ?? 0) + (count ?? 0));
        }
      }
    }
    return totals;
  }

  /** One facet of one kind over the query's buckets, ranked, with the kind's total (for what no value holds). */
  async function facet(scope: Scope, query: MetricsQuery, since: Since, kind: EngagementKind, name: Facet) {
    const docs = await covering(scope, query, since, ['n', `f.${kind}.${name}`]);
    return {
      ranked: rank(sumFacet(docs, [kind], name)),
      total: docs.reduce((sum, doc) => sum + (doc.n?.[kind] ?? 0), 0),
    };
  }

  async function series(scope: Scope, query: MetricsQuery, since: Since, counter: SeriesCounter) {
    const { starts, counters } = await seriesCounters(scope, query, since);
    const count = counterOf(counter);
    return {
      ...envelope(query),
      data: starts.map((start) => ({ ts: formatTime(start), count: count(counters.get(start)) })),
    };
  }

  return {
    since,

    /** `engagements`: one entry per unit, most recent first, zeros included. */
    async engagements(scope: Scope, query: MetricsQuery, since: Since) {
      const { starts, counters } = await seriesCounters(scope, query, since);
      return {
        engagements: starts.map((start) => {
          const n = counters.get(start);
          return { engagement_count: totalOf(n), engagements: engagementsOf(n), date: formatTime(start) };
        }),
        ...envelope(query),
      };
    },

    /**
     * Engagements over the query's buckets. Days, weeks and months over a range with a whole month in it are
     * summed from the month documents' finer counters (one `_id` range, fewer documents than the tiles);
     * shorter ranges from their tiles (a few small documents).
     */
    async engagementsSummary(scope: Scope, query: MetricsQuery, since: Since) {
      const engagements = engagementsOf(undefined);
      const add = (n: Counters | undefined) => {
        for (const kind of ENGAGEMENT_KINDS) engagements[kind] += n?.[kind] ?? 0;
      };
      const fromMonths = SERIES_SOURCE[query.unit].unit === 'month';
      if (fromMonths && fromBeginning(since)) {
        for (const n of (await seriesCounters(scope, query, since)).counters.values()) add(n);
      } else {
        const starts = queryBuckets(query, await resolved(scope, since));
        const tiles = tilesOf(query, starts);
        if (fromMonths && tiles.some((tile) => tile.unit === 'month'))
          for (const n of (await countersOf(scope, query.unit, starts)).values()) add(n);
        else for (const doc of await coveringOf(scope, tiles, ['n'])) add(doc.n);
      }
      return {
        total_engagements: engagements.clicks + engagements.scans + engagements.lib_button_clicks,
        engagements,
        ...envelope(query),
      };
    },

    /** The time-series envelope: one `{ts, count}` per unit, most recent first, zeros included. */
    series,

    /** A faceted envelope whose items are `{<count name>: n, <item name>: value}`, the first `size` of them. */
    async faceted(
      scope: Scope,
      query: MetricsQuery,
      since: Since,
      spec: { kind: EngagementKind; facet: Facet; name: string; item?: string; limit?: boolean },
    ) {
      const { ranked } = await facet(scope, query, since, spec.kind, spec.facet);
      const items = spec.limit === false ? ranked : ranked.slice(0, query.size);
      return {
        ...envelope(query),
        facet: spec.name,
        metrics: items.map((r) => ({ [spec.kind]: r.count, [spec.item ?? 'value']: r.value })),
      };
    },

    /** Cities with their subdivisions and country; `other_metrics` counts the cities past `size` and clicks without one. */
    async cities(scope: Scope, query: MetricsQuery, since: Since, kind: EngagementKind) {
      const { ranked, total } = await facet(scope, query, since, kind, 'city');
      const shown = ranked.slice(0, query.size);
      const inCities = ranked.reduce((sum, r) => sum + r.count, 0);
      const shownCount = shown.reduce((sum, r) => sum + r.count, 0);
      const singular = kind === 'scans' ? 'scans' : 'clicks';
      return {
        ...envelope(query),
        facet: 'cities',
        metrics: shown.map((r) => ({ [kind]: r.count, ...readCityKey(r.value) })),
        other_metrics: {
          [`other_city_${singular}`]: inCities - shownCount,
          [`no_city_${singular}`]: Math.max(0, total - inCities),
        },
      };
    },

    /** Referrers grouped by their network, networks with the most first, `size` referrers each. */
    async referrersByNetwork(scope: Scope, query: MetricsQuery, since: Since, kind: EngagementKind) {
      const { ranked } = await facet(scope, query, since, kind, 'referrer_by_network');
      const networks = new Map<string, { total: number; referrers: Ranked }>();
      for (const r of ranked) {
        const { network, url } = readNetworkReferrerKey(r.value);
        const entry = networks.get(network) ?? { total: 0, referrers: [] };
        entry.total += r.count;
        entry.referrers.push({ value: url, count: r.count });
        networks.set(network, entry);
      }
      const ordered = [...networks].sort((a, b) => b[1].total - a[1].total || (a[0] < b[0] ? -1 : 1));
      return {
        ...envelope(query),
        facet: 'referrers_by_domain',
        referrers_by_domain: ordered.map(([network, entry]) => ({
          network,
          referrers: entry.referrers.slice(0, query.size).map((r) => ({ key: r.value, value: r.count })),
        })),
      };
    },

    /** The scope's links by engagements (group buckets' `link` facet over every kind), most first. */
    async topLinks(scope: Scope, query: MetricsQuery, since: Since): Promise<Ranked> {
      const docs = await covering(
        scope,
        query,
        since,
        ENGAGEMENT_KINDS.map((kind) => `f.${kind}.link`),
      );
      return rank(sumFacet(docs, ENGAGEMENT_KINDS, 'link'));
    },

    /** `shorten_counts`: links created per unit, as a faceted envelope of `{key: date, value: count}`. */
    async shortenCounts(scope: Scope, query: MetricsQuery, since: Since) {
      const answer = await series(scope, query, since, 'shortens');
      return {
        unit: answer.unit,
        units: answer.units,
        facet: 'shorten_counts',
        unit_reference: answer.unit_reference,
        metrics: answer.data.map((d) => ({ key: d.ts, value: d.count })),
      };
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
