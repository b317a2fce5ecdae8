import { UNITS, bucketStart, type Unit } from './buckets.js';
import type { AnalyticsEvent, Engagement } from './events.js';
import { cityKey, encodeKey, networkReferrerKey, type Facet, type FacetReader } from './facets.js';

/** What a bucket counts: a short link, a group (all its links) or a QR code. */
export type ScopeKind = 'link' | 'group' | 'qr';
export interface Scope {
  kind: ScopeKind;
  key: string;
}

const PREFIX: Record<ScopeKind, string> = { link: 'l', group: 'g', qr: 'q' };

/**
 * A bucket's `_id`: scope, key, unit and start, so that one scope's buckets of one unit are one `_id` range in
 * time order (ISO-8601 starts sort as strings), read through the primary key alone.
 */
export const bucketId = (scope: Scope, unit: Unit, start: number) => `${PREFIX[scope.kind]}|${scope.key}|${unit}|${new Date(start).toISOString()}`;
/** The `_id` range of one scope's buckets of one unit: `[from, to)`. */
export const bucketIdRange = (scope: Scope, unit: Unit) => ({ from: `${PREFIX[scope.kind]}|${scope.key}|${unit}|`, to: `${PREFIX[scope.kind]}|${scope.key}|${unit}|~` });

/** How long buckets of a unit are kept after their start, in milliseconds; null: for good. */
export type Retention = Record<Unit, number | null>;

export const DEFAULT_RETENTION: Retention = {
  minute: 48 * 3600_000,
  hour: 400 * 24 * 3600_000,
  day: null,
  week: null,
  month: null,
};

/** What one event adds to a bucket of one scope: counters (`n.*`) and facets, shared by its five units. */
interface Contribution {
  /** The paths every scope's bucket gets (shared by the events with the same facets). */
  common: string[];
  /** The one path particular to this scope and event (a link's destination, a group's link), if any. */
  extra: string | null;
  /** The counter names among the paths (`clicks`, `bots`), for the finer buckets' counters. */
  counters: string[];
}

export interface PlannedBucket {
  id: string;
  scope: Scope;
  unit: Unit;
  start: number;
  expiresAt: number | null;
  /** The offsets of the events that fall in this bucket, ascending, with what each adds. */
  offsets: number[];
  contributions: Contribution[];
  /** Per event, where in this bucket its finer bucket's counters go (`h.13`), if anywhere. */
  children: Array<string[] | null>;
  /** Every event's increments summed: the update when the bucket has seen none of them (the common case). */
  all: Record<string, number>;
}

export interface BatchPlan {
  buckets: Map<string, PlannedBucket>;
  /** Events counted (human engagements and shortens), bot engagements, and events too old for any bucket. */
  counted: number;
  bots: number;
}

export interface PlanOptions {
  facets: FacetReader;
  now: number;
  retention: Retention;
  /** Count bots' engagements like people's; by default they are only counted apart (`n.bots`). */
  countBots: boolean;
}

const f = (kind: string, facet: Facet, value: string) => `f.${kind}.${facet}.${encodeKey(value)}`;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Where a bucket keeps the counters of the finer buckets inside it, so that a time series reads a few coarse
 * documents rather than one per unit (FerretDB decodes every document it reads): an hour keeps its minutes
 * (`m.05`), a day its hours (`h.13`), a month its days (`d.29`) and, per week starting on a Monday, the part of
 * that week that falls in the month (`w.2024-02-26`).
 */
export function childCounters(unit: Unit, at: number): string[] {
  const d = new Date(at);
  switch (unit) {
    case 'hour':
      return [`m.${pad(d.getUTCMinutes())}`];
    case 'day':
      return [`h.${pad(d.getUTCHours())}`];
    case 'month':
      return [`d.${pad(d.getUTCDate())}`, `w.${new Date(bucketStart('week', at)).toISOString().slice(0, 10)}`];
    default:
      return [];
  }
}

const BOTS_ONLY: Contribution = { common: ['n.bots'], extra: null, counters: ['bots'] };
const SHORTEN: Contribution = { common: ['n.shortens'], extra: null, counters: ['shortens'] };

/**
 * What one engagement adds in a bucket of each scope. The facet paths depend only on the kind, the user agent,
 * the address and the referrer, which traffic repeats: they are built once per such combination.
 */
function createContributions(options: PlanOptions) {
  const cache = new Map<string, { common: string[]; counters: string[]; bot: boolean }>();
  const commonOf = (e: Engagement) => {
    const key = `${e.kind}\u0001${e.bot}\u0001${e.userAgent}\u0001${e.clientIp}\u0001${e.referrer}`;
    let hit = cache.get(key);
    if (hit) return hit;
    const facets = options.facets(e);
    const bot = e.bot || facets.bot;
    const k = e.kind;
    const { place, referrer } = facets;
    const common = [
      `n.${k}`,
      f(k, 'device', facets.device),
      f(k, 'os', facets.os),
      f(k, 'browser', facets.browser),
      f(k, 'referrer', referrer.url),
      f(k, 'referrer_name', referrer.name),
      f(k, 'referring_domain', referrer.domain),
      f(k, 'referring_network', referrer.network),
      f(k, 'referrer_by_network', networkReferrerKey(referrer)),
    ];
    if (place.country) common.push(f(k, 'country', place.country));
    // A click without a city is counted in no city (no_city_clicks = the kind's total minus the cities).
    if (place.city) common.push(f(k, 'city', cityKey(place)));
    if (bot) common.push('n.bots');
    hit = { common, counters: bot ? [k, 'bots'] : [k], bot };
    if (cache.size >= 10_000) cache.clear();
    cache.set(key, hit);
    return hit;
  };
  return (e: Engagement): { link: Contribution; group: Contribution; qr: Contribution; bot: boolean } => {
    const { common, counters, bot } = commonOf(e);
    if (bot && !options.countBots) return { link: BOTS_ONLY, group: BOTS_ONLY, qr: BOTS_ONLY, bot: true };
    return {
      link: { common, extra: f(e.kind, 'destination', e.longUrl), counters },
      group: { common, extra: f(e.kind, 'link', e.linkId), counters },
      qr: { common, extra: null, counters },
      bot,
    };
  };
}

/**
 * Pre-aggregation: a batch of one partition's events becomes one planned update per distinct bucket (scope ×
 * unit × start), each holding which counters its events add to. The writer turns a bucket into a single
 * `$inc`, counting only the events past the bucket's watermark for that partition (see ADR 0016). Events
 * older than a unit's retention skip that unit (their bucket is, or is about to be, swept).
 */
export function planBatch(items: ReadonlyArray<{ offset: number; event: AnalyticsEvent }>, options: PlanOptions): BatchPlan {
  const buckets = new Map<string, PlannedBucket>();
  let counted = 0;
  let bots = 0;

  const contributions = createContributions(options);
  // Per minute of event time: each unit's bucket start and where its finer counters go (shared by its events).
  const minutes = new Map<number, Array<{ unit: Unit; start: number; expiresAt: number | null; children: string[] | null; iso: string }>>();
  const placesOf = (at: number) => {
    const minute = bucketStart('minute', at);
    let places = minutes.get(minute);
    if (!places) {
      places = [];
      for (const unit of UNITS) {
        const start = bucketStart(unit, minute);
        const keep = options.retention[unit];
        const expiresAt = keep === null ? null : start + keep;
        if (expiresAt !== null && expiresAt <= options.now) continue;
        places.push({ unit, start, expiresAt, children: unit === 'minute' || unit === 'week' ? null : childCounters(unit, minute), iso: new Date(start).toISOString() });
      }
      minutes.set(minute, places);
    }
    return places;
  };

  const add = (scope: Scope, at: number, offset: number, contribution: Contribution) => {
    for (const { unit, start, expiresAt, children, iso } of placesOf(at)) {
      const id = `${PREFIX[scope.kind]}|${scope.key}|${unit}|${iso}`;
      let bucket = buckets.get(id);
      if (!bucket) {
        bucket = { id, scope, unit, start, expiresAt, offsets: [], contributions: [], children: [], all: {} };
        buckets.set(id, bucket);
      }
      bucket.offsets.push(offset);
      bucket.contributions.push(contribution);
      bucket.children.push(children);
      addTo(bucket.all, contribution, children);
    }
  };

  const ordered = [...items].sort((a, b) => a.offset - b.offset);
  for (const { offset, event } of ordered) {
    if (event.type === 'shorten') {
      counted++;
      add({ kind: 'group', key: event.groupGuid }, event.at, offset, SHORTEN);
      continue;
    }
    const parts = contributions(event);
    if (parts.bot && !options.countBots) bots++;
    else counted++;
    add({ kind: 'link', key: event.linkId }, event.at, offset, parts.link);
    add({ kind: 'group', key: event.groupGuid }, event.at, offset, parts.group);
    if (event.qrcodeId) add({ kind: 'qr', key: event.qrcodeId }, event.at, offset, parts.qr);
  }
  return { buckets, counted, bots };
}

function addTo(inc: Record<string, number>, contribution: Contribution, children: string[] | null): void {
  for (const path of contribution.common) inc[path] = (inc[path] ?? 0) + 1;
  if (contribution.extra) inc[contribution.extra] = (inc[contribution.extra] ?? 0) + 1;
  if (!children) return;
  for (const child of children) {
    for (const counter of contribution.counters) {
      const path = `${child}.${counter}`;
      inc[path] = (inc[path] ?? 0) + 1;
    }
  }
}

/** The increments of a bucket's events past `watermark` (the last offset already in it), or null if none. */
export function deltaAfter(bucket: PlannedBucket, watermark: number | null): Record<string, number> | null {
  if (bucket.offsets.length === 0) return null;
  if (watermark === null || watermark < bucket.offsets[0]!) return bucket.all;
  const inc: Record<string, number> = {};
  let any = false;
  for (let i = 0; i < bucket.offsets.length; i++) {
    if (bucket.offsets[i]! <= watermark) continue;
    addTo(inc, bucket.contributions[i]!, bucket.children[i]!);
    any = true;
  }
  return any ? inc : null;
}
