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

export interface PlannedBucket {
  id: string;
  scope: Scope;
  unit: Unit;
  start: number;
  expiresAt: number | null;
  /** The offsets of the events that fall in this bucket, ascending, and the counters each one adds 1 to. */
  offsets: number[];
  paths: string[][];
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

/** The counters one engagement adds 1 to in a bucket of each scope. */
function engagementPaths(e: Engagement, options: PlanOptions): { link: string[]; group: string[]; qr: string[]; bot: boolean } {
  const facets = options.facets(e);
  const bot = e.bot || facets.bot;
  if (bot && !options.countBots) {
    const only = ['n.bots'];
    return { link: only, group: only, qr: only, bot: true };
  }
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
  return {
    link: [...common, f(k, 'destination', e.longUrl)],
    group: [...common, f(k, 'link', e.linkId)],
    qr: common,
    bot,
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

  const add = (scope: Scope, at: number, offset: number, paths: string[]) => {
    for (const unit of UNITS) {
      const start = bucketStart(unit, at);
      const keep = options.retention[unit];
      const expiresAt = keep === null ? null : start + keep;
      if (expiresAt !== null && expiresAt <= options.now) continue;
      const id = bucketId(scope, unit, start);
      let bucket = buckets.get(id);
      if (!bucket) {
        bucket = { id, scope, unit, start, expiresAt, offsets: [], paths: [] };
        buckets.set(id, bucket);
      }
      bucket.offsets.push(offset);
      bucket.paths.push(paths);
    }
  };

  const ordered = [...items].sort((a, b) => a.offset - b.offset);
  for (const { offset, event } of ordered) {
    if (event.type === 'shorten') {
      counted++;
      add({ kind: 'group', key: event.groupGuid }, event.at, offset, ['n.shortens']);
      continue;
    }
    const paths = engagementPaths(event, options);
    if (paths.bot && !options.countBots) bots++;
    else counted++;
    add({ kind: 'link', key: event.linkId }, event.at, offset, paths.link);
    add({ kind: 'group', key: event.groupGuid }, event.at, offset, paths.group);
    if (event.qrcodeId) add({ kind: 'qr', key: event.qrcodeId }, event.at, offset, paths.qr);
  }
  return { buckets, counted, bots };
}

/** The increments of a bucket's events past `watermark` (the last offset already in it), or null if none. */
export function deltaAfter(bucket: PlannedBucket, watermark: number | null): Record<string, number> | null {
  const inc: Record<string, number> = {};
  let any = false;
  for (let i = 0; i < bucket.offsets.length; i++) {
    if (watermark !== null && bucket.offsets[i]! <= watermark) continue;
    for (const path of bucket.paths[i]!) inc[path] = (inc[path] ?? 0) + 1;
    any = true;
  }
  return any ? inc : null;
}
