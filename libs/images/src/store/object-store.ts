import { randomBytes } from 'node:crypto';
import { EgressBlockedError, type EgressClient } from '@platform/egress';
import { InputError, PlatformError, isPlatformError } from '@platform/errors';
import type { GcsStore, S3Store } from '../options.js';
import type { ImageType } from '../media-types.js';
import { encodeS3Path, sha256Hex, signV4 } from './sigv4.js';

/**
 * Where the providers are reached. Production uses the public endpoints; an override points at any
 * S3- or GCS-compatible server (path-style addressing), which is how the tests reach local ones.
 */
export interface StoreEndpoints {
  /** `https://s3.{region}.amazonaws.com` when unset; `{region}` is replaced. */
  s3?: string;
  /** `https://storage.googleapis.com` when unset. */
  gcs?: string;
  timeoutMs: number;
}

export interface StoredObject {
  /** The stored object's address ({storage_url}), returned as `Location`. */
  location: string;
}

/**
 * A provider that answered with a 5xx or not at all: a 503 for the client to retry. Not retried by the
 * worker (the client is waiting, and a retry of its request is cheap).
 */
export class StoreUnavailableError extends PlatformError {
  readonly kind = 'unavailable';
}

const refused = (provider: string, status: number, detail: string) =>
  new InputError(
    'store_refused',
    `The ${provider} provider refused to store the image (HTTP ${status}${detail ? `: ${detail}` : ''}).`,
  );

function splitPath(path: string): { bucket: string; key: string } {
  const slash = path.indexOf('/');
  return { bucket: path.slice(0, slash), key: path.slice(slash + 1) };
}

/** The provider's short error code (S3 XML `<Code>`, GCS JSON `error.message`), for the client's message. */
function providerDetail(body: string): string {
  const xml = /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];
  if (xml) return xml;
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message.slice(0, 200);
  } catch {
    // not JSON: no detail
  }
  return '';
}

async function send(egress: EgressClient, provider: string, request: Parameters<EgressClient['send']>[0]) {
  try {
    return await egress.send({ ...request, maxBodyBytes: 4096 });
  } catch (error) {
    if (error instanceof EgressBlockedError)
      throw new InputError('store_not_allowed', `The ${provider} endpoint is a private or reserved address.`);
    if (isPlatformError(error)) throw error;
    throw new StoreUnavailableError(
      'store_unreachable',
      `The ${provider} provider could not be reached; try again later.`,
    );
  }
}

function checkAnswer(provider: string, response: { status: number; body: string }): void {
  if (response.status >= 200 && response.status < 300) return;
  const detail = providerDetail(response.body);
  if (response.status >= 500)
    throw new StoreUnavailableError(
      'store_unavailable',
      `The ${provider} provider failed (HTTP ${response.status}); try again later.`,
    );
  throw refused(provider, response.status, detail);
}

/** S3 PutObject, SigV4-signed, path-style; the canned ACL (default public-read) unless `no-acl`. */
export async function storeS3(
  egress: EgressClient,
  store: S3Store,
  image: { data: Buffer; type: ImageType },
  endpoints: StoreEndpoints,
): Promise<StoredObject> {
  const base = (endpoints.s3 ?? 'https://s3.{region}.amazonaws.com')
    .replace('{region}', store.region)
    .replace(/\/$/, '');
  const { bucket, key } = splitPath(store.path);
  const url = new URL(`${base}${encodeS3Path(`/${bucket}/${key}`)}`);
  const headers: Record<string, string> = { 'content-type': image.type, 'content-length': String(image.data.length) };
  if (store.acl) headers['x-amz-acl'] = store.acl;
  if (store.headers['Cache-Control']) headers['cache-control'] = store.headers['Cache-Control'];
  const signed = signV4({
    method: 'PUT',
    url,
    headers,
    payloadSha256: sha256Hex(image.data),
    accessKeyId: store.accessKeyId,
    secretAccessKey: store.secretAccessKey,
    region: store.region,
    service: 's3',
    now: new Date(),
  });
  const response = await send(egress, 's3', {
    url: url.toString(),
    method: 'PUT',
    headers: signed,
    body: image.data,
    timeoutMs: endpoints.timeoutMs,
  });
  checkAnswer('s3', response);
  return { location: url.toString() };
}

/** GCS JSON API multipart upload (metadata + media), authorised with the caller's OAuth access token. */
export async function storeGcs(
  egress: EgressClient,
  store: GcsStore,
  image: { data: Buffer; type: ImageType },
  endpoints: StoreEndpoints,
): Promise<StoredObject> {
  const base = (endpoints.gcs ?? 'https://storage.googleapis.com').replace(/\/$/, '');
  const { bucket, key } = splitPath(store.path);
  const metadata: Record<string, string> = { name: key, contentType: image.type };
  if (store.headers['Cache-Control']) metadata['cacheControl'] = store.headers['Cache-Control'];
  const boundary = `image-${randomBytes(12).toString('hex')}`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(metadata)}\r\n--${boundary}\r\ncontent-type: ${image.type}\r\n\r\n`,
    ),
    image.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const url = `${base}/upload/storage/v1/b/${encodeURIComponent(bucket)}/o?uploadType=multipart`;
  const response = await send(egress, 'gcs', {
    url,
    method: 'POST',
    headers: {
      authorization: `Bearer ${store.accessToken}`,
      'content-type': `multipart/related; boundary=${boundary}`,
      'content-length': String(body.length),
    },
    body,
    timeoutMs: endpoints.timeoutMs,
  });
  checkAnswer('gcs', response);
  return { location: `${base}${encodeS3Path(`/${bucket}/${key}`)}` };
}

export function storeImage(
  egress: EgressClient,
  store: S3Store | GcsStore,
  image: { data: Buffer; type: ImageType },
  endpoints: StoreEndpoints,
): Promise<StoredObject> {
  return store.service === 's3' ? storeS3(egress, store, image, endpoints) : storeGcs(egress, store, image, endpoints);
}
