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

/** What preserve writes: only these tags, nothing libvips would add (resolution, orientation, versions). */
export interface ExifToWrite {
  copyright?: string | undefined;
  /** EXIF `YYYY:MM:DD HH:MM:SS`. */
  created?: string | undefined;
  gps?: ExifFacts['gps'] | undefined;
}

interface WriteEntry {
  tag: number;
  type: 2 | 4 | 5;
  count: number;
  /** Bytes of the value: inline when 4 or fewer, else placed after the IFD. */
  value: Buffer;
}

/** EXIF ASCII is bytes: Latin-1 when the text fits (as it was read), UTF-8 otherwise. */
function asciiValue(text: string): Buffer {
  const bytes = [...text].every((c) => c.charCodeAt(0) <= 0xff)
    ? Buffer.from(text, 'latin1')
    : Buffer.from(text, 'utf8');
  return Buffer.concat([bytes, Buffer.from([0])]);
}

function rationalsValue(values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 8);
  values.forEach((v, i) => {
    // Degrees and minutes are whole; seconds keep four decimals.
    const den = Number.isInteger(v) ? 1 : 10_000;
    out.writeUInt32BE(Math.max(0, Math.round(v * den)), i * 8);
    out.writeUInt32BE(den, i * 8 + 4);
  });
  return out;
}

const ascii = (tag: number, text: string): WriteEntry => {
  const value = asciiValue(text);
  return { tag, type: 2, count: value.length, value };
};
const pointer = (tag: number): WriteEntry => ({ tag, type: 4, count: 1, value: Buffer.alloc(4) });

/**
 * The smallest TIFF structure (big-endian) holding the given facts: IFD0 with Copyright and the pointers it
 * needs, an EXIF IFD with DateTimeOriginal, a GPS IFD with the two references and coordinates. Empty when there
 * is nothing to write. JPEG wraps it in APP1 (`Exif\0\0` first), PNG in an eXIf chunk as it is.
 */
export function writeExif(facts: ExifToWrite): Buffer {
  const exifIfd = facts.created ? [ascii(TAG.dateTimeOriginal, facts.created)] : [];
  const gpsIfd = facts.gps
    ? [
        ascii(GPS.latitudeRef, facts.gps.latitudeRef),
        { tag: GPS.latitude, type: 5 as const, count: 3, value: rationalsValue(facts.gps.latitude) },
        ascii(GPS.longitudeRef, facts.gps.longitudeRef),
        { tag: GPS.longitude, type: 5 as const, count: 3, value: rationalsValue(facts.gps.longitude) },
      ]
    : [];
  const ifd0 = [
    ...(facts.copyright ? [ascii(TAG.copyright, facts.copyright)] : []),
    ...(exifIfd.length ? [pointer(TAG.exifIfd)] : []),
    ...(gpsIfd.length ? [pointer(TAG.gpsIfd)] : []),
  ];
  if (ifd0.length === 0) return Buffer.alloc(0);

  const ifdSize = (entries: WriteEntry[]) =>
    2 + entries.length * 12 + 4 + entries.reduce((n, e) => n + (e.value.length > 4 ? e.value.length : 0), 0);
  const ifd0At = 8;
  const exifAt = ifd0At + ifdSize(ifd0);
  const gpsAt = exifAt + (exifIfd.length ? ifdSize(exifIfd) : 0);
  for (const entry of ifd0) {
    if (entry.tag === TAG.exifIfd) entry.value.writeUInt32BE(exifAt);
    if (entry.tag === TAG.gpsIfd) entry.value.writeUInt32BE(gpsAt);
  }

  const out = Buffer.alloc(gpsAt + (gpsIfd.length ? ifdSize(gpsIfd) : 0));
  out.write('MM', 0, 'latin1');
  out.writeUInt16BE(42, 2);
  out.writeUInt32BE(ifd0At, 4);
  const writeIfd = (at: number, entries: WriteEntry[]) => {
    out.writeUInt16BE(entries.length, at);
    let data = at + 2 + entries.length * 12 + 4;
    entries.forEach((e, i) => {
      const slot = at + 2 + i * 12;
      out.writeUInt16BE(e.tag, slot);
      out.writeUInt16BE(e.type, slot + 2);
      out.writeUInt32BE(e.count, slot + 4);
      if (e.value.length <= 4) e.value.copy(out, slot + 8);
      else {
        out.writeUInt32BE(data, slot + 8);
        e.value.copy(out, data);
        data += e.value.length;
      }
    });
    // The next-IFD offset stays 0: no thumbnail IFD.
  };
  writeIfd(ifd0At, ifd0);
  if (exifIfd.length) writeIfd(exifAt, exifIfd);
  if (gpsIfd.length) writeIfd(gpsAt, gpsIfd);
  return out;
}
