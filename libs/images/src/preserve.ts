import type { Metadata, Sharp } from 'sharp';
import { readExifFacts, type ExifFacts } from './exif.js';
import type { ImageType } from './media-types.js';
import type { MetadataKind } from './options.js';
import { withPngXmp } from './png-text.js';

/** The facts preserve can copy, from the original's EXIF, or from its XMP when EXIF lacks them (PNG). */
export function metadataFacts(metadata: Metadata): ExifFacts {
  const facts = readExifFacts(metadata.exif);
  const xmp = metadata.xmp?.toString('utf8');
  if (xmp) {
    facts.copyright ??= xmpRights(xmp);
    const created = xmpCreateDate(xmp);
    if (!facts.dateTimeOriginal && created) facts.dateTimeOriginal = created;
  }
  return facts;
}

function selected(facts: ExifFacts, kinds: MetadataKind[], type: ImageType) {
  return {
    copyright: kinds.includes('copyright') ? facts.copyright : undefined,
    created: kinds.includes('creation') ? facts.dateTimeOriginal : undefined,
    gps: kinds.includes('location') && type === 'image/jpeg' ? facts.gps : undefined,
  };
}

/**
 * Writes the requested facts the way each type carries them: EXIF for JPEG (copyright, original date,
 * GPS), XMP for the others (rights, create date). Location is JPEG only; missing facts add nothing.
 * PNG gets its XMP after encoding, from {@link finishMetadata}.
 */
export function applyMetadata(pipeline: Sharp, facts: ExifFacts, kinds: MetadataKind[], type: ImageType): Sharp {
  const { copyright, created, gps } = selected(facts, kinds, type);
  if ((!copyright && !created && !gps) || type === 'image/png') return pipeline;
  if (type === 'image/jpeg') {
    return pipeline.withExif({
      IFD0: copyright ? { Copyright: copyright } : {},
      IFD2: created ? { DateTimeOriginal: created } : {},
      IFD3: gps
        ? {
            GPSLatitudeRef: gps.latitudeRef,
            GPSLatitude: rationalTriple(gps.latitude),
            GPSLongitudeRef: gps.longitudeRef,
            GPSLongitude: rationalTriple(gps.longitude),
          }
        : {},
    });
  }
  return pipeline.withXmp(xmpPacket(copyright, created));
}

/** The encoded image with the metadata that only fits after encoding (XMP as a PNG iTXt chunk). */
export function finishMetadata(data: Buffer, facts: ExifFacts, kinds: MetadataKind[], type: ImageType): Buffer {
  const { copyright, created } = selected(facts, kinds, type);
  if (type !== 'image/png' || (!copyright && !created)) return data;
  return withPngXmp(data, xmpPacket(copyright, created));
}

function rationalTriple(values: number[]): string {
  return values.map((v) => `${Math.round(v * 10_000)}/10000`).join(' ');
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

function xmpPacket(copyright: string | undefined, created: string | undefined): string {
  const rights = copyright
    ? `<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(copyright)}</rdf:li></rdf:Alt></dc:rights>`
    : '';
  const date = created ? `<xmp:CreateDate>${escapeXml(exifDateToIso(created))}</xmp:CreateDate>` : '';
  return (
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">' +
    `${rights}${date}</rdf:Description></rdf:RDF></x:xmpmeta>`
  );
}

/** `2020:01:02 03:04:05` (EXIF) to `2020-01-02T03:04:05` (XMP); anything else passes unchanged. */
export function exifDateToIso(value: string): string {
  const m = /^(\d{4}):(\d{2}):(\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(value);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}` : value;
}

function isoToExifDate(value: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})/.exec(value);
  return m ? `${m[1]}:${m[2]}:${m[3]} ${m[4]}` : undefined;
}

function xmpRights(xmp: string): string | undefined {
  const block = /<dc:rights>([\s\S]*?)<\/dc:rights>/.exec(xmp)?.[1];
  const text = block ? (/<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/.exec(block)?.[1] ?? block) : undefined;
  return text?.trim() || undefined;
}

function xmpCreateDate(xmp: string): string | undefined {
  const value = /<xmp:CreateDate>([^<]+)<\/xmp:CreateDate>/.exec(xmp)?.[1] ?? /xmp:CreateDate="([^"]+)"/.exec(xmp)?.[1];
  return value ? isoToExifDate(value.trim()) : undefined;
}
