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
export const bucketId = (scope: Scope, unit: Unit, start: number) =>
  `${PREFIX[scope.kind]}|${scope.key}|${unit}|${new Date(start).toISOString()}`;
/** The `_id` range of one scope's buckets of one unit: `[from, to)`. */
export const bucketIdRange = (scope: Scope, unit: Unit) => ({
  from: `${PREFIX[scope.kind]}|${scope.key}|${unit}|`,
  to: `${PREFIX[scope.kind]}|${scope.key}|${unit}|~`,
});

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

/** Events of a batch that add the same thing to the same buckets: their offsets, ascending. */
interface Part {
  contribution: Contribution;
  /** Where in this bucket their finer bucket's counters go (`h.13`), if anywhere. */
  children: string[] | null;
  offsets: number[];
}

export interface PlannedBucket {
  id: string;
  scope: Scope;
  unit: Unit;
  start: number;
  expiresAt: number | null;
  /** The lowest offset of the events that fall in this bucket. */
  firstOffset: number;
  /** The bucket's events, grouped by what they add (one part per link, minute of event time and facets). */
  parts: Part[];
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
  return commonOf;
}

/** What an engagement with these facets adds in a bucket of each scope. */
function scopeContributions(
  e: Engagement,
  facets: { common: string[]; counters: string[]; bot: boolean },
  countBots: boolean,
) {
  if (facets.bot && !countBots) return { link: BOTS_ONLY, group: BOTS_ONLY, qr: BOTS_ONLY };
  const { common, counters } = facets;
  return {
    link: { common, extra: f(e.kind, 'destination', e.longUrl), counters },
    group: { common, extra: f(e.kind, 'link', e.linkId), counters },
    qr: { common, extra: null, counters },
  };
}

/** The events of a batch that share their buckets and their contributions (same scopes, minute, facets). */
interface Cell {
  at: number;
  parts: { link: Contribution; group: Contribution; qr: Contribution } | null;
  /** Counted apart as bots only. */
  bot: boolean;
  link: Scope | null;
  group: Scope;
  qr: Scope | null;
  offsets: number[];
}

/**
 * Pre-aggregation: a batch of one partition's events becomes one planned update per distinct bucket (scope ×
 * unit × start), each holding which counters its events add to. The writer turns a bucket into a single
 * `$inc`, counting only the events past the bucket's watermark for that partition (see ADR 0016). Events
 * older than a unit's retention skip that unit (their bucket is, or is about to be, swept).
 */
export function planBatch(
  items: ReadonlyArray<{ offset: number; event: AnalyticsEvent }>,
  options: PlanOptions,
): BatchPlan {
  const planner = createPlanner(options);
  planner.add(items);
  return planner.plan();
}

export interface Planner {
  /** Adds events of the partition, all past the ones added before. */
  add(items: ReadonlyArray<{ offset: number; event: AnalyticsEvent }>): void;
  /** Adds one event past the ones added before; gives back what `remove` takes to take it out again. */
  addOne(offset: number, event: AnalyticsEvent): PlannedEvent;
  /** Takes out an event added before (a repeat of one counted earlier, known only later); once is enough. */
  remove(offset: number, event: PlannedEvent): void;
  /** The updates of every event added so far (the same each time it is asked). */
  plan(): BatchPlan;
  /** Events added so far. */
  readonly events: number;
}

/** Where the planner put an event (its cell): opaque to the caller. */
export type PlannedEvent = object;

/**
 * A plan built a piece at a time, so that one plan can fold several fetches of a partition.
 *
 * Traffic repeats itself: the events of one link in one minute with the same facets add the same paths to the
 * same buckets. They are grouped as they come (one map lookup per event, a few bytes kept: the offset), and only
 * the groups are spread over the buckets, each with its count, so the work and memory per event do not grow
 * with the buckets and paths it touches.
 */
export function createPlanner(options: PlanOptions): Planner {
  let counted = 0;
  let bots = 0;
  let events = 0;
  const contributions = createContributions(options);
  const cells = new Map<string, Cell>();

  function addOne(offset: number, event: AnalyticsEvent): Cell {
    events++;
    const minute = bucketStart('minute', event.at);
    if (event.type === 'shorten') {
      counted++;
      const key = `s\u0001${event.groupGuid}\u0001${minute}`;
      let cell = cells.get(key);
      if (cell) cell.offsets.push(offset);
      else
        cells.set(
          key,
          (cell = {
            at: minute,
            parts: null,
            bot: false,
            link: null,
            group: { kind: 'group', key: event.groupGuid },
            qr: null,
            offsets: [offset],
          }),
        );
      return cell;
    }
    // One key for what an event adds and where: its facets' inputs, its scopes, its destination, its minute.
    const key = `${event.kind}\u0001${event.bot}\u0001${event.userAgent}\u0001${event.clientIp}\u0001${event.referrer}\u0001${event.linkId}\u0001${event.groupGuid}\u0001${event.qrcodeId ?? ''}\u0001${event.longUrl}\u0001${minute}`;
    let cell = cells.get(key);
    if (cell) cell.offsets.push(offset);
    else {
      const facets = contributions(event);
      cell = {
        at: minute,
        parts: scopeContributions(event, facets, options.countBots),
        bot: facets.bot && !options.countBots,
        link: { kind: 'link', key: event.linkId },
        group: { kind: 'group', key: event.groupGuid },
        qr: event.qrcodeId ? { kind: 'qr', key: event.qrcodeId } : null,
        offsets: [offset],
      };
      cells.set(key, cell);
    }
    if (cell.bot) bots++;
    else counted++;
    return cell;
  }

  function remove(offset: number, event: PlannedEvent): void {
    const cell = event as Cell;
    const at = cell.offsets.length - countAfter(cell.offsets, offset - 1);
    if (cell.offsets[at] !== offset) return;
    cell.offsets.splice(at, 1);
    if (cell.bot) bots--;
    else counted--;
  }

  function plan(): BatchPlan {
    const buckets = new Map<string, PlannedBucket>();
    // Per minute of event time: each unit's bucket start and where its finer counters go (shared by its events).
    const minutes = new Map<
      number,
      Array<{ unit: Unit; start: number; expiresAt: number | null; children: string[] | null; iso: string }>
    >();
    const placesOf = (minute: number) => {
      let places = minutes.get(minute);
      if (!places) {
        places = [];
        for (const unit of UNITS) {
          const start = bucketStart(unit, minute);
          const keep = options.retention[unit];
          const expiresAt = keep === null ? null : start + keep;
          if (expiresAt !== null && expiresAt <= options.now) continue;
          places.push({
            unit,
            start,
            expiresAt,
            children: unit === 'minute' || unit === 'week' ? null : childCounters(unit, minute),
            iso: new Date(start).toISOString(),
          });
        }
        minutes.set(minute, places);
      }
      return places;
    };
    const spread = (scope: Scope, minute: number, offsets: number[], contribution: Contribution) => {
      for (const { unit, start, expiresAt, children, iso } of placesOf(minute)) {
        const id = `${PREFIX[scope.kind]}|${scope.key}|${unit}|${iso}`;
        let bucket = buckets.get(id);
        if (!bucket) {
          bucket = { id, scope, unit, start, expiresAt, firstOffset: offsets[0]!, parts: [], all: {} };
          buckets.set(id, bucket);
        } else if (offsets[0]! < bucket.firstOffset) bucket.firstOffset = offsets[0]!;
        bucket.parts.push({ contribution, children, offsets });
        addTo(bucket.all, contribution, children, offsets.length);
      }
    };
    for (const cell of cells.values()) {
      if (cell.offsets.length === 0) continue; // its events were all removed
      if (!cell.parts) {
        spread(cell.group, cell.at, cell.offsets, SHORTEN);
        continue;
      }
      spread(cell.link!, cell.at, cell.offsets, cell.parts.link);
      spread(cell.group, cell.at, cell.offsets, cell.parts.group);
      if (cell.qr) spread(cell.qr, cell.at, cell.offsets, cell.parts.qr);
    }
    return { buckets, counted, bots };
  }

  return {
    add(items) {
      for (const { offset, event } of inOffsetOrder(items, (i) => i.offset)) addOne(offset, event);
    },
    addOne,
    remove,
    plan,
    get events() {
      return events;
    },
  };
}

/** The items by ascending offset: as they are when they come from one partition, copied and sorted otherwise. */
export function inOffsetOrder<T>(items: ReadonlyArray<T>, offsetOf: (item: T) => number): ReadonlyArray<T> {
  for (let i = 1; i < items.length; i++)
    if (offsetOf(items[i]!) < offsetOf(items[i - 1]!)) return [...items].sort((a, b) => offsetOf(a) - offsetOf(b));
  return items;
}

function addTo(inc: Record<string, number>, contribution: Contribution, children: string[] | null, n: number): void {
  for (const path of contribution.common) inc[path] = (inc[path] ?? 0) + n;
  if (contribution.extra) inc[contribution.extra] = (inc[contribution.extra] ?? 0) + n;
  if (!children) return;
  for (const child of children) {
    for (const counter of contribution.counters) {
      const path = `${child}.${counter}`;
      inc[path] = (inc[path] ?? 0) + n;
    }
  }
}

/** How many of ascending `offsets` are past `watermark`. */
function countAfter(offsets: number[], watermark: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid]! <= watermark) lo = mid + 1;
    else hi = mid;
  }
  return offsets.length - lo;
}

/** The increments of a bucket's events past `watermark` (the last offset already in it), or null if none. */
export function deltaAfter(bucket: PlannedBucket, watermark: number | null): Record<string, number> | null {
  if (bucket.parts.length === 0) return null;
  if (watermark === null || watermark < bucket.firstOffset) return bucket.all;
  const inc: Record<string, number> = {};
  let any = false;
  for (const part of bucket.parts) {
    const n = countAfter(part.offsets, watermark);
    if (n === 0) continue;
    addTo(inc, part.contribution, part.children, n);
    any = true;
  }
  return any ? inc : null;
}
