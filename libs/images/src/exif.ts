/** The few EXIF facts that preserve copies: read from the TIFF structure sharp returns as `metadata.exif`. */
export interface ExifFacts {
  copyright?: string;
  /** EXIF `YYYY:MM:DD HH:MM:SS`. */
  dateTimeOriginal?: string;
  gps?: { latitudeRef: string; latitude: number[]; longitudeRef: string; longitude: number[] };
}

const TAG = { copyright: 0x8298, exifIfd: 0x8769, gpsIfd: 0x8825, dateTimeOriginal: 0x9003 } as const;
const GPS = { latitudeRef: 1, latitude: 2, longitudeRef: 3, longitude: 4 } as const;
const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8 };

interface Entry {
  type: number;
  count: number;
  valueOffset: number;
}

/** Parses defensively: a malformed block yields fewer facts, never an exception. */
export function readExifFacts(exif: Buffer | undefined): ExifFacts {
  if (!exif) return {};
  try {
    return parse(exif);
  } catch {
    return {};
  }
}

function parse(raw: Buffer): ExifFacts {
  // sharp hands the APP1 payload, which starts with "Exif\0\0" before the TIFF header.
  const tiff = raw.toString('latin1', 0, 4) === 'Exif' ? raw.subarray(6) : raw;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return {};
  const le = order === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));

  function readIfd(offset: number): Map<number, Entry> {
    const entries = new Map<number, Entry>();
    if (offset <= 0 || offset + 2 > tiff.length) return entries;
    const count = Math.min(u16(offset), 512);
    for (let i = 0; i < count; i++) {
      const at = offset + 2 + i * 12;
      if (at + 12 > tiff.length) break;
      const type = u16(at + 2);
      const n = u32(at + 4);
      const size = (TYPE_SIZE[type] ?? 1) * n;
      entries.set(u16(at), { type, count: n, valueOffset: size <= 4 ? at + 8 : u32(at + 8) });
    }
    return entries;
  }

  const ascii = (e: Entry | undefined) => {
    if (!e || e.type !== 2 || e.valueOffset + e.count > tiff.length) return undefined;
    const text = tiff
      .toString('latin1', e.valueOffset, e.valueOffset + e.count)
      .replace(/\0+$/, '')
      .trim();
    return text.length > 0 ? text : undefined;
  };
  const rationals = (e: Entry | undefined) => {
    if (!e || e.type !== 5 || e.count !== 3 || e.valueOffset + 24 > tiff.length) return undefined;
    return [0, 1, 2].map((i) => {
      const den = u32(e.valueOffset + i * 8 + 4);
      return den === 0 ? 0 : u32(e.valueOffset + i * 8) / den;
    });
  };

  const ifd0 = readIfd(u32(4));
  const facts: ExifFacts = {};
  const copyright = ascii(ifd0.get(TAG.copyright));
  if (copyright) facts.copyright = copyright;
  const exifIfd = ifd0.get(TAG.exifIfd);
  if (exifIfd) {
    const created = ascii(readIfd(u32(exifIfd.valueOffset)).get(TAG.dateTimeOriginal));
    if (created) facts.dateTimeOriginal = created;
  }
  const gpsIfd = ifd0.get(TAG.gpsIfd);
  if (gpsIfd) {
    const gps = readIfd(u32(gpsIfd.valueOffset));
    const latitudeRef = ascii(gps.get(GPS.latitudeRef));
    const latitude = rationals(gps.get(GPS.latitude));
    const longitudeRef = ascii(gps.get(GPS.longitudeRef));
    const longitude = rationals(gps.get(GPS.longitude));
    if (latitudeRef && latitude && longitudeRef && longitude)
      facts.gps = { latitudeRef, latitude, longitudeRef, longitude };
  }
  return facts;
}
