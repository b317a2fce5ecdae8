import type { Metadata, Sharp } from 'sharp';
import { withJpegExif, withPngExif } from './embed-exif.js';
import { readExifFacts, writeExif, type ExifFacts } from './exif.js';
import type { ImageType } from './media-types.js';
import type { MetadataKind } from './options.js';

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
 * Writes the requested facts before encoding where only the encoder can: WebP and AVIF carry them as XMP
 * (rights, create date). JPEG and PNG get theirs after encoding, from {@link finishMetadata}.
 */
export function applyMetadata(pipeline: Sharp, facts: ExifFacts, kinds: MetadataKind[], type: ImageType): Sharp {
  const { copyright, created } = selected(facts, kinds, type);
  if ((!copyright && !created) || type === 'image/png' || type === 'image/jpeg') return pipeline;
  return pipeline.withXmp(xmpPacket(copyright, created));
}

/**
 * The encoded JPEG or PNG with the requested facts as the smallest EXIF that holds them (spec: copyright up to
 * 90 bytes plus the text, creation about 70, location about 130): only those tags, in an APP1 segment (JPEG) or
 * an eXIf chunk (PNG), never the resolution, orientation and version tags libvips would add. Location is JPEG
 * only; missing facts add nothing.
 */
export function finishMetadata(data: Buffer, facts: ExifFacts, kinds: MetadataKind[], type: ImageType): Buffer {
  if (type !== 'image/png' && type !== 'image/jpeg') return data;
  const tiff = writeExif(selected(facts, kinds, type));
  if (tiff.length === 0) return data;
  return type === 'image/png' ? withPngExif(data, tiff) : withJpegExif(data, tiff);
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
