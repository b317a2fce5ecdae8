import { request } from 'undici';
import { resolveInfra } from '@platform/testing';
import { encodeS3Path, sha256Hex, signV4 } from '../../libs/images/src/store/sigv4.js';

/** Direct access to the local S3- and GCS-compatible servers, to set buckets up and read stored objects back. */
export interface StoredObjectRead {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

async function s3Call(
  method: 'GET' | 'PUT',
  path: string,
  query = '',
  body: Buffer = Buffer.alloc(0),
): Promise<StoredObjectRead> {
  const { s3 } = resolveInfra();
  const url = new URL(`${s3.url}${encodeS3Path(path)}${query}`);
  const headers = signV4({
    method,
    url,
    headers: {},
    payloadSha256: sha256Hex(body),
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    region: 'us-east-1',
    service: 's3',
    now: new Date(),
  });
  const response = await request(url, {
    method,
    headers,
    body: method === 'PUT' ? body : null,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: Buffer.from(await response.body.arrayBuffer()),
  };
}

export async function createS3Bucket(bucket: string): Promise<void> {
  const { status, body } = await s3Call('PUT', `/${bucket}`);
  if (status !== 200) throw new Error(`create bucket ${bucket}: ${status} ${body.toString()}`);
}

export const readS3Object = (bucket: string, key: string) => s3Call('GET', `/${bucket}/${key}`);
export const readS3ObjectAcl = (bucket: string, key: string) => s3Call('GET', `/${bucket}/${key}`, '?acl');

export async function createGcsBucket(bucket: string): Promise<void> {
  const response = await request(`${resolveInfra().gcsUrl}/storage/v1/b`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: bucket }),
    headersTimeout: 10_000,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`create GCS bucket ${bucket}: ${response.statusCode} ${text}`);
}

/** The object's bytes and its metadata (content type, cache control) from the JSON API. */
export async function readGcsObject(
  bucket: string,
  name: string,
): Promise<{ data: Buffer; metadata: Record<string, unknown> }> {
  const base = `${resolveInfra().gcsUrl}/storage/v1/b/${encodeURIComponent(bucket)}/o/${encodeURIComponent(name)}`;
  const [media, meta] = await Promise.all([
    request(`${base}?alt=media`, { headersTimeout: 10_000 }),
    request(base, { headersTimeout: 10_000 }),
  ]);
  if (media.statusCode !== 200) throw new Error(`read GCS object ${bucket}/${name}: ${media.statusCode}`);
  return {
    data: Buffer.from(await media.body.arrayBuffer()),
    metadata: (await meta.body.json()) as Record<string, unknown>,
  };
}
