import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import tinify from 'tinify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestImage } from '@platform/images/testing';
import { resolveInfra, uniqueName } from '@platform/testing';
import { startImagesStack, type ImagesStack } from '../support/images-stack.js';
import { createGcsBucket, createS3Bucket, readGcsObject, readS3Object } from '../support/object-stores.js';

/**
 * The official `tinify` npm client, unmodified: only its documented settings (`key`) and the class
 * defaults it reads at request time (`Client.API_ENDPOINT`, `Client.CA_BUNDLE`) are pointed at this server.
 */
let stack: ImagesStack;
let dir: string;
let imageHost: Server;
let imageHostUrl: string;
const bucket = uniqueName('tinify')
  .toLowerCase()
  .replace(/[^a-z0-9-]/g, '-');
// Public static defaults of the client class (not in its type declarations).
const clientDefaults = tinify.Client as unknown as { API_ENDPOINT: string; CA_BUNDLE: string };
const original = { endpoint: clientDefaults.API_ENDPOINT, ca: clientDefaults.CA_BUNDLE };

beforeAll(async () => {
  stack = await startImagesStack({ workers: 1, egressAllow: ['127.0.0.0/8'] });
  clientDefaults.API_ENDPOINT = stack.baseUrl;
  clientDefaults.CA_BUNDLE = stack.certificate;
  tinify.key = (await stack.newKey()).key;
  dir = mkdtempSync(path.join(tmpdir(), 'tinify-'));
  const photo = await buildTestImage({
    type: 'image/jpeg',
    photo: true,
    width: 480,
    height: 320,
    exif: {
      IFD0: { Copyright: 'Copyright 2026 Example Photographer' },
      IFD2: { DateTimeOriginal: '2026:03:04 05:06:07' },
    },
  });
  writeFileSync(path.join(dir, 'photo.jpg'), photo);
  writeFileSync(path.join(dir, 'logo.png'), await buildTestImage({ subject: true, alpha: 0, width: 300, height: 200 }));
  imageHost = createServer((req, res) =>
    req.url === '/photo.jpg'
      ? res.writeHead(200).end(photo)
      : req.url === '/moved.jpg'
        ? res.writeHead(301, { location: '/photo.jpg' }).end()
        : res.writeHead(404).end(),
  );
  await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve));
  imageHostUrl = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
  await Promise.all([createS3Bucket(bucket), createGcsBucket(bucket)]);
}, 180_000);

afterAll(async () => {
  clientDefaults.API_ENDPOINT = original.endpoint;
  clientDefaults.CA_BUNDLE = original.ca;
  imageHost?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await stack?.close();
});

describe('the official tinify client against this server', () => {
  it('validates a good key and refuses a bad one with an AccountError', async () => {
    await expect(tinify.validate()).resolves.toBeUndefined();
    expect(tinify.compressionCount).toBe(0);
    const good = (await stack.newKey()).key;
    tinify.key = 'not-a-real-key';
    await expect(tinify.validate()).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('Credentials are invalid'),
    });
    tinify.key = good;
  });

  it('compresses from a file and writes the result to a file', async () => {
    const target = path.join(dir, 'photo.min.jpg');
    await tinify.fromFile(path.join(dir, 'photo.jpg')).toFile(target);
    const input = readFileSync(path.join(dir, 'photo.jpg'));
    const output = readFileSync(target);
    expect(output.length).toBeLessThan(input.length);
    expect(await sharp(output).metadata()).toMatchObject({ format: 'jpeg', width: 480, height: 320 });
    expect(tinify.compressionCount).toBe(1);
  });

  it('compresses from a URL', async () => {
    const result = tinify.fromUrl(`${imageHostUrl}/photo.jpg`).result();
    expect(await result.mediaType()).toBe('image/jpeg');
    expect(await result.width()).toBe(480);
    expect(tinify.compressionCount).toBe(2);
  });

  it('resizes (one more compression) and reports the new dimensions', async () => {
    const result = tinify
      .fromFile(path.join(dir, 'photo.jpg'))
      .resize({ method: 'fit', width: 150, height: 100 })
      .result();
    expect([await result.width(), await result.height()]).toEqual([150, 100]);
    // The upload is the same file as before: answered from its earlier output, uncounted; the resize counts.
    expect(tinify.compressionCount).toBe(3);
  });

  it('converts with a background, and to the smallest of several types', async () => {
    const source = tinify.fromFile(path.join(dir, 'logo.png'));
    const jpeg = source.convert({ type: 'image/jpeg' }).transform({ background: 'white' }).result();
    expect(await jpeg.mediaType()).toBe('image/jpeg');
    expect(await jpeg.extension()).toBe('jpeg');
    const smallest = source.convert({ type: ['image/webp', 'image/png'] }).result();
    expect(['image/webp', 'image/png']).toContain(await smallest.mediaType());
    // As the client's own integration test asks: image/jpg is JPEG.
    const aliased = source
      .convert({ type: ['image/webp', 'image/jpg'] })
      .transform({ background: 'white' })
      .result();
    expect(['image/webp', 'image/jpeg']).toContain(await aliased.mediaType());
    const refused = source.convert({ type: 'image/jpeg' }).toBuffer();
    await expect(refused).rejects.toBeInstanceOf(tinify.ClientError);
  });

  it('preserves copyright and creation', async () => {
    const data = await tinify.fromFile(path.join(dir, 'photo.jpg')).preserve('copyright', 'creation').toBuffer();
    const tags = (await exifr.parse(Buffer.from(data), { reviveValues: false })) as Record<string, unknown>;
    expect(tags['Copyright']).toBe('Copyright 2026 Example Photographer');
    expect(tags['DateTimeOriginal']).toBe('2026:03:04 05:06:07');
  });

  it('stores to S3 and to GCS, and reads the stored location', async () => {
    const { s3, gcsUrl } = resolveInfra();
    const source = tinify.fromFile(path.join(dir, 'photo.jpg'));
    const s3Location = await source
      .store({
        service: 's3',
        aws_access_key_id: s3.accessKeyId,
        aws_secret_access_key: s3.secretAccessKey,
        region: 'us-east-1',
        path: `${bucket}/tinify/photo.jpg`,
      })
      .location();
    expect(s3Location).toBe(`${s3.url}/${bucket}/tinify/photo.jpg`);
    expect((await readS3Object(bucket, 'tinify/photo.jpg')).status).toBe(200);
    const meta = source.store({ service: 'gcs', gcp_access_token: 'ya29.local', path: `${bucket}/tinify/photo.jpg` });
    expect(await meta.location()).toBe(`${gcsUrl}/${bucket}/tinify/photo.jpg`);
    expect(await meta.width()).toBe(480);
    expect((await sharp((await readGcsObject(bucket, 'tinify/photo.jpg')).data).metadata()).format).toBe('jpeg');
  });

  it('compresses from a URL that redirects (http to https, CDNs, presigned links)', async () => {
    const result = tinify.fromUrl(`${imageHostUrl}/moved.jpg`).result();
    expect(await result.mediaType()).toBe('image/jpeg');
    expect(await result.width()).toBe(480);
  });

  it('surfaces an unsupported file as a ClientError with the server message', async () => {
    await expect(tinify.fromBuffer(Buffer.from('GIF89a-not-supported')).toBuffer()).rejects.toMatchObject({
      status: 415,
      message: expect.stringContaining('File type is not supported'),
    });
  });
});
