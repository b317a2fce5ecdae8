import { formatTime } from './buckets.js';
import { ENGAGEMENT_KINDS, type EngagementKind } from './events.js';
import { decodeKey, readCityKey, readNetworkReferrerKey, type Facet } from './facets.js';
import type { Scope } from './plan.js';
import { queryBuckets, type MetricsQuery } from './query.js';
import type { AnalyticsStore, BucketDoc, Counters } from './store.js';

/** Values and counts, most first (ties by value, so answers are stable). */
export type Ranked = Array<{ value: string; count: number }>;

const rank = (totals: Map<string, number>): Ranked =>
  [...totals].map(([value, count]) => ({ value, count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));

const engagementsOf = (n: Counters | undefined) => ({
  lib_button_clicks: n?.['lib_button_clicks'] ?? 0,
  clicks: n?.['clicks'] ?? 0,
  scans: n?.['scans'] ?? 0,
});
const totalOf = (n: Counters | undefined) => ENGAGEMENT_KINDS.reduce((sum, kind) => sum + (n?.[kind] ?? 0), 0);

/** What a time series counts in each bucket. */
export type SeriesCounter = 'engagements' | EngagementKind | 'shortens';
const counterOf = (counter: SeriesCounter) => (n: Counters | undefined) => (counter === 'engagements' ? totalOf(n) : (n?.[counter] ?? 0));

/**
 * The metrics operations' answers, read from a scope's buckets. `since` is when the link or group began (the
 * start of `units=-1`); every answer covers the buckets of {@link queryBuckets}.
 */
export function createReports(store: AnalyticsStore) {
  async function load(scope: Scope, query: MetricsQuery, since: number | null, fields: string[]) {
    const starts = queryBuckets(query, since);
    const docs = starts.length === 0 ? [] : await store.buckets(scope, query.unit, starts.at(-1)!, starts[0]!, fields);
    return { starts, docs };
  }

  const envelope = (query: MetricsQuery) => ({ unit: query.unit, units: query.units, unit_reference: formatTime(query.reference) });

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

  const sumCounter = (docs: BucketDoc[], counter: SeriesCounter) => docs.reduce((sum, doc) => sum + counterOf(counter)(doc.n), 0);

  async function series(scope: Scope, query: MetricsQuery, since: number | null, counter: SeriesCounter) {
    const { starts, docs } = await load(scope, query, since, ['n']);
    const count = counterOf(counter);
    const byStart = new Map(docs.map((d) => [d.t.getTime(), count(d.n)]));
    return { ...envelope(query), data: starts.map((start) => ({ ts: formatTime(start), count: byStart.get(start) ?? 0 })) };
  }

  /** One facet of one kind over the query's buckets, ranked, with the kind's total (for what no value holds). */
  async function facet(scope: Scope, query: MetricsQuery, since: number | null, kind: EngagementKind, name: Facet) {
    const { docs } = await load(scope, query, since, ['n', `f.${kind}.${name}`]);
    return { ranked: rank(sumFacet(docs, [kind], name)), total: sumCounter(docs, kind) };
  }

  return {
    /**
     * Where `units=-1` starts for a scope: when it began (a link's or group's creation) or its oldest bucket of
     * the unit, whichever is first.
     */
    async since(scope: Scope, unit: MetricsQuery['unit'], began: number | null): Promise<number | null> {
      const oldest = await store.earliest(scope, unit);
      if (oldest === null) return began;
      return began === null ? oldest : Math.min(oldest, began);
    },

    /** `engagements`: one entry per unit, most recent first, zeros included. */
    async engagements(scope: Scope, query: MetricsQuery, since: number | null) {
      const { starts, docs } = await load(scope, query, since, ['n']);
      const byStart = new Map(docs.map((d) => [d.t.getTime(), d.n]));
      return {
        engagements: starts.map((start) => {
          const n = byStart.get(start);
          return { engagement_count: totalOf(n), engagements: engagementsOf(n), date: formatTime(start) };
        }),
        ...envelope(query),
      };
    },

    async engagementsSummary(scope: Scope, query: MetricsQuery, since: number | null) {
      const { docs } = await load(scope, query, since, ['n']);
      const engagements = engagementsOf(undefined);
      for (const doc of docs) for (const kind of ENGAGEMENT_KINDS) engagements[kind] += doc.n?.[kind] ?? 0;
      return { total_engagements: engagements.clicks + engagements.scans + engagements.lib_button_clicks, engagements, ...envelope(query) };
    },

    /** The time-series envelope: one `{ts, count}` per unit, most recent first, zeros included. */
    series,

    /** A faceted envelope whose items are `{<count name>: n, <item name>: value}`, the first `size` of them. */
    async faceted(scope: Scope, query: MetricsQuery, since: number | null, spec: { kind: EngagementKind; facet: Facet; name: string; item?: string; limit?: boolean }) {
      const { ranked } = await facet(scope, query, since, spec.kind, spec.facet);
      const items = spec.limit === false ? ranked : ranked.slice(0, query.size);
      return {
        ...envelope(query),
        facet: spec.name,
        metrics: items.map((r) => ({ [spec.kind]: r.count, [spec.item ?? 'value']: r.value })),
      };
    },

    /** Cities with their subdivisions and country; `other_metrics` counts the cities past `size` and clicks without one. */
    async cities(scope: Scope, query: MetricsQuery, since: number | null, kind: EngagementKind) {
      const { ranked, total } = await facet(scope, query, since, kind, 'city');
      const shown = ranked.slice(0, query.size);
      const inCities = ranked.reduce((sum, r) => sum + r.count, 0);
      const shownCount = shown.reduce((sum, r) => sum + r.count, 0);
      const singular = kind === 'scans' ? 'scans' : 'clicks';
      return {
        ...envelope(query),
        facet: 'cities',
        metrics: shown.map((r) => ({ [kind]: r.count, ...readCityKey(r.value) })),
        other_metrics: { [`other_city_${singular}`]: inCities - shownCount, [`no_city_${singular}`]: Math.max(0, total - inCities) },
      };
    },

    /** Referrers grouped by their network, networks with the most first, `size` referrers each. */
    async referrersByNetwork(scope: Scope, query: MetricsQuery, since: number | null, kind: EngagementKind) {
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
        referrers_by_domain: ordered.map(([network, entry]) => ({ network, referrers: entry.referrers.slice(0, query.size).map((r) => ({ key: r.value, value: r.count })) })),
      };
    },

    /** The scope's links by engagements (group buckets' `link` facet over every kind), most first. */
    async topLinks(scope: Scope, query: MetricsQuery, since: number | null): Promise<Ranked> {
      const { docs } = await load(scope, query, since, ENGAGEMENT_KINDS.map((kind) => `f.${kind}.link`));
      return rank(sumFacet(docs, ENGAGEMENT_KINDS, 'link'));
    },

    /** `shorten_counts`: links created per unit, as a faceted envelope of `{key: date, value: count}`. */
    async shortenCounts(scope: Scope, query: MetricsQuery, since: number | null) {
      const answer = await series(scope, query, since, 'shortens');
      return { unit: answer.unit, units: answer.units, facet: 'shorten_counts', unit_reference: answer.unit_reference, metrics: answer.data.map((d) => ({ key: d.ts, value: d.count })) };
    },
  };
}

export type Reports = ReturnType<typeof createReports>;
