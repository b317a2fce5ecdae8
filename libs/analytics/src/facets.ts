import type { GeoLookup, Place } from './geo.js';
import { readReferrer, type ReferrerFacets } from './referrer.js';
import { readUserAgent, type DeviceType } from './user-agent.js';

/**
 * The facets the metrics endpoints break engagements down by, as stored: each is a map from a value to a
 * count inside a bucket (`f.<kind>.<facet>.<value>`).
 */
export const FACETS = [
  'country',
  'city',
  'device',
  'os',
  'browser',
  'referrer',
  'referrer_name',
  'referring_domain',
  'referring_network',
  'referrer_by_network',
  /** Link buckets: the destination each engagement went to (`clicks_by_destination`). */
  'destination',
  /** Group buckets: the link engaged with (`engagements/top`). */
  'link',
] as const;
export type Facet = (typeof FACETS)[number];

export interface EngagementFacets {
  place: Place;
  device: DeviceType;
  os: string;
  browser: string;
  referrer: ReferrerFacets;
  /** The user agent is a bot by isbot's list. */
  bot: boolean;
}

export type FacetReader = (engagement: {
  clientIp: string | null;
  userAgent: string | null;
  referrer: string | null;
}) => EngagementFacets;

/** A bounded memo: traffic repeats its user agents, addresses and referrers, and parsing them is the cost. */
function memo<T>(read: (key: string | null) => T, max: number): (key: string | null) => T {
  const cache = new Map<string | null, T>();
  return (key) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = read(key);
    if (cache.size >= max) cache.delete(cache.keys().next().value as string | null);
    cache.set(key, value);
    return value;
  };
}

export function createFacetReader(geo: GeoLookup, options: { cacheSize?: number } = {}): FacetReader {
  const max = options.cacheSize ?? 10_000;
  const software = memo(readUserAgent, max);
  const place = memo((ip) => geo.locate(ip), max);
  const referrer = memo(readReferrer, max);
  return (e) => {
    const ua = software(e.userAgent);
    return {
      place: place(e.clientIp),
      device: ua.device,
      os: ua.os,
      browser: ua.browser,
      referrer: referrer(e.referrer),
      bot: ua.bot,
    };
  };
}

/** A city's value in the `city` facet: the city with its subdivisions and country, which the answer repeats. */
export const cityKey = (p: Place) => JSON.stringify([p.city, p.subregion, p.region, p.country]);

export function readCityKey(key: string): { city: string; subregion: string; region: string; country: string } {
  const [city, subregion, region, country] = JSON.parse(key) as Array<string | null>;
  return { city: city ?? '', subregion: subregion ?? '', region: region ?? '', country: country ?? '' };
}

/** A referrer in the `referrer_by_network` facet: its network and URL. */
export const networkReferrerKey = (r: ReferrerFacets) => JSON.stringify([r.network, r.url]);
export const readNetworkReferrerKey = (key: string) => {
  const [network, url] = JSON.parse(key) as [string, string];
  return { network, url };
};

// Field names may not contain `.` or start with `$` (MongoDB and FerretDB): facet values are escaped.
// NUL ends a BSON field name: it is escaped too (as a string, which no-control-regex allows).
const ESCAPE = /[%.$]/g;
export const encodeKey = (value: string) =>
  value.length === 0
    ? '%'
    : value.replace(ESCAPE, (c) => `%${c.charCodeAt(0).toString(16)}`).replaceAll('\u0000', '%00');
export const decodeKey = (key: string) =>
  key === '%' ? '' : key.replace(/%([0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
