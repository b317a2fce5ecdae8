import { InputError } from '@platform/errors';
import { IMAGE_TYPES, isImageType, type ImageType } from './media-types.js';

export type ResizeMethod = 'scale' | 'fit' | 'cover' | 'thumb';
export type ResizeOptions =
  | { method: 'scale'; width: number; height?: undefined }
  | { method: 'scale'; width?: undefined; height: number }
  | { method: 'fit' | 'cover' | 'thumb'; width: number; height: number };

export type MetadataKind = 'copyright' | 'creation' | 'location';
export const METADATA_KINDS: readonly MetadataKind[] = ['copyright', 'creation', 'location'];

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface S3Store {
  service: 's3';
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  path: string;
  headers: Record<string, string>;
  acl: string | null;
}

export interface GcsStore {
  service: 'gcs';
  accessToken: string;
  path: string;
  headers: Record<string, string>;
}

export interface OutputOptions {
  resize?: ResizeOptions;
  /** Candidate output types; the smallest result wins. */
  convert?: ImageType[];
  background?: Rgb;
  preserve?: MetadataKind[];
  store?: S3Store | GcsStore;
}

const MAX_DIMENSION = 32_767;
const bad = (message: string) => new InputError('bad_request', message);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dimension(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_DIMENSION) {
    throw bad(`Resize ${name} must be an integer between 1 and ${MAX_DIMENSION}.`);
  }
  return value;
}

export function parseResize(value: unknown): ResizeOptions {
  if (!isObject(value)) throw bad('Resize must be an object with a method and dimensions.');
  const { method } = value;
  const width = dimension(value['width'], 'width');
  const height = dimension(value['height'], 'height');
  switch (method) {
    case 'scale':
      if (width !== undefined && height !== undefined)
        throw bad('Resize method scale takes either width or height, not both.');
      if (width !== undefined) return { method, width };
      if (height !== undefined) return { method, height };
      throw bad('Resize method scale requires either width or height.');
    case 'fit':
    case 'cover':
    case 'thumb':
      if (width === undefined || height === undefined)
        throw bad(`Resize method ${method} requires both width and height.`);
      return { method, width, height };
    case undefined:
      throw bad('Resize requires a method: scale, fit, cover or thumb.');
    default:
      throw bad(`Resize method must be one of scale, fit, cover, thumb; got ${JSON.stringify(method)}.`);
  }
}

/** Media types the official clients send for a type under another name (the Node client's tests convert to image/jpg). */
const TYPE_ALIASES: Record<string, ImageType> = { 'image/jpg': 'image/jpeg' };

export function parseConvert(value: unknown): ImageType[] {
  if (!isObject(value) || value['type'] === undefined)
    throw bad('Convert requires a type: a media type, a list of them, or */*.');
  const raw = value['type'];
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw bad('Convert type must name at least one media type.');
  const out = new Set<ImageType>();
  for (const item of list) {
    if (item === '*/*') IMAGE_TYPES.forEach((t) => out.add(t));
    else if (typeof item === 'string' && isImageType(item.toLowerCase())) out.add(item.toLowerCase() as ImageType);
    else if (typeof item === 'string' && TYPE_ALIASES[item.toLowerCase()]) out.add(TYPE_ALIASES[item.toLowerCase()]!);
    else throw bad(`Convert type ${JSON.stringify(item)} is not supported; use ${IMAGE_TYPES.join(', ')} or */*.`);
  }
  return [...out];
}

const NAMED_COLOURS: Record<string, Rgb> = { white: { r: 255, g: 255, b: 255 }, black: { r: 0, g: 0, b: 0 } };

export function parseBackground(value: unknown): Rgb {
  if (typeof value === 'string') {
    const named = NAMED_COLOURS[value.toLowerCase()];
    if (named) return named;
    const hex = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(value)?.[1];
    if (hex) {
      const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
      return {
        r: parseInt(full.slice(0, 2), 16),
        g: parseInt(full.slice(2, 4), 16),
        b: parseInt(full.slice(4, 6), 16),
      };
    }
  }
  throw bad('Transform background must be a hex colour (#RRGGBB), white or black.');
}

export function parsePreserve(value: unknown): MetadataKind[] {
  if (!Array.isArray(value)) throw bad('Preserve must be a list of copyright, creation, location.');
  const out = new Set<MetadataKind>();
  for (const item of value) {
    if (typeof item !== 'string' || !(METADATA_KINDS as readonly string[]).includes(item)) {
      throw bad(`Preserve value ${JSON.stringify(item)} is not one of copyright, creation, location.`);
    }
    out.add(item as MetadataKind);
  }
  return [...out];
}

function requiredString(store: Record<string, unknown>, name: string): string {
  const value = store[name];
  if (typeof value !== 'string' || value.length === 0)
    throw bad(`Store option ${name} is required for service ${String(store['service'])}.`);
  return value;
}

function storeHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) throw bad('Store headers must be an object.');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (name.toLowerCase() !== 'cache-control')
      throw bad(`Store header ${name} is not supported; only Cache-Control is.`);
    if (typeof v !== 'string' || !/^[\x20-\x7e]{1,256}$/.test(v))
      throw bad('Store header Cache-Control must be a short string.');
    out['Cache-Control'] = v;
  }
  return out;
}

/** The region names a host (`s3.<region>.amazonaws.com`): only the characters of real region names. */
function storeRegion(store: Record<string, unknown>): string {
  const region = requiredString(store, 'region');
  if (!/^[a-z0-9-]{1,40}$/.test(region)) throw bad('Store region must be a region name such as us-west-1.');
  return region;
}

function storePath(store: Record<string, unknown>): string {
  const path = requiredString(store, 'path');
  const bucket = path.slice(0, path.indexOf('/'));
  if (
    !/^[a-z0-9][a-z0-9._-]{1,62}$/.test(bucket) ||
    !/^[^/]+\/[^\0]*[^/]$/.test(path) ||
    path.length > 1024 ||
    path.split('/').includes('..')
  ) {
    throw bad('Store path must have the form <bucket>/<path>/<filename>.');
  }
  return path;
}

export function parseStore(value: unknown): S3Store | GcsStore {
  if (!isObject(value)) throw bad('Store must be an object with a service.');
  switch (value['service']) {
    case 's3': {
      const acl = value['acl'];
      if (acl !== undefined && (typeof acl !== 'string' || !/^[a-z-]{1,40}$/.test(acl)))
        throw bad('Store acl must be a canned ACL name or no-acl.');
      return {
        service: 's3',
        accessKeyId: requiredString(value, 'aws_access_key_id' in value ? 'aws_access_key_id' : 'cloud_access_key_id'),
        secretAccessKey: requiredString(
          value,
          'aws_secret_access_key' in value ? 'aws_secret_access_key' : 'cloud_secret_access_key',
        ),
        region: storeRegion(value),
        path: storePath(value),
        headers: storeHeaders(value['headers']),
        acl: acl === 'no-acl' ? null : (acl ?? 'public-read'),
      };
    }
    case 'gcs':
      return {
        service: 'gcs',
        accessToken: requiredString(value, 'gcp_access_token' in value ? 'gcp_access_token' : 'cloud_access_token'),
        path: storePath(value),
        headers: storeHeaders(value['headers']),
      };
    default:
      throw bad('Store service must be s3 or gcs.');
  }
}

const KNOWN = new Set(['resize', 'convert', 'transform', 'preserve', 'store']);

/** Validates a POST /output body; every message is shown to the client as the 400's message. */
export function parseOutputOptions(body: unknown): OutputOptions {
  if (!isObject(body)) throw bad('The request body must be a JSON object.');
  for (const key of Object.keys(body)) if (!KNOWN.has(key)) throw bad(`Unknown option ${key}.`);
  const options: OutputOptions = {};
  if (body['resize'] !== undefined) options.resize = parseResize(body['resize']);
  if (body['convert'] !== undefined) options.convert = parseConvert(body['convert']);
  if (body['transform'] !== undefined) {
    const transform = body['transform'];
    if (!isObject(transform) || transform['background'] === undefined) throw bad('Transform requires a background.');
    options.background = parseBackground(transform['background']);
  }
  if (body['preserve'] !== undefined) options.preserve = parsePreserve(body['preserve']);
  if (body['store'] !== undefined) options.store = parseStore(body['store']);
  if (!options.resize && !options.convert && !options.background && !options.preserve && !options.store) {
    throw bad('Give at least one of resize, convert, transform, preserve or store.');
  }
  return options;
}

/** Spec rule 9: an upload counts one; each resize, conversion and store one more; preserve none. */
export function compressionsFor(options: OutputOptions): number {
  return (options.resize ? 1 : 0) + (options.convert ? 1 : 0) + (options.store ? 1 : 0);
}
