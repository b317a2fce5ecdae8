import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import exifr from 'exifr';
import sharp from 'sharp';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestImage } from '@platform/images/testing';
import { resolveInfra, uniqueName } from '@platform/testing';
import { startImagesStack, type ImagesStack } from '../support/images-stack.js';
import {
  createGcsBucket,
  createS3Bucket,
  readGcsObject,
  readS3Object,
  readS3ObjectAcl,
} from '../support/object-stores.js';

let stack: ImagesStack;
let agent: Agent;
let key: string;
let imageHost: Server;
let imageHostUrl: string;
const bucket = uniqueName('bucket')
  .toLowerCase()
  .replace(/[^a-z0-9-]/g, '-');

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json: () => Record<string, unknown>;
}

const basic = (k: string) => `Basic ${Buffer.from(`api:${k}`).toString('base64')}`;

async function call(
  method: 'GET' | 'POST',
  path: string,
  body?: Buffer | object,
  apiKey: string | null = key,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (apiKey !== null) headers['authorization'] = basic(apiKey);
  let payload: Buffer | string | undefined;
  if (Buffer.isBuffer(body)) payload = body;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const url = path.startsWith('https://') ? path : `${stack.baseUrl}${path}`;
  const response = await request(url, {
    method,
    headers,
    body: payload ?? null,
    dispatcher: agent,
    headersTimeout: 90_000,
    bodyTimeout: 90_000,
  });
  const data = Buffer.from(await response.body.arrayBuffer());
  return {
    status: response.statusCode,
    headers: response.headers,
    body: data,
    json: () => JSON.parse(data.toString()) as Record<string, unknown>,
  };
}

async function shrink(image: Buffer, apiKey = key): Promise<{ location: string; answer: Answer }> {
  const answer = await call('POST', '/shrink', image, apiKey);
  expect(answer.status, answer.body.toString()).toBe(201);
  return { location: String(answer.headers['location']), answer };
}

const count = (a: Answer) => Number(a.headers['compression-count']);

beforeAll(async () => {
  stack = await startImagesStack({
    workers: 2,
    egressAllow: ['127.0.0.0/8'],
    uploadLimitBytes: 2 * 1024 * 1024,
    sourceMaxBytes: 1024 * 1024,
  });
  agent = new Agent({ connect: { ca: stack.certificate } });
  ({ key } = await stack.newKey());
  const photo = await buildTestImage({ type: 'image/jpeg', photo: true, width: 400, height: 300 });
  imageHost = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    if (req.url === '/photo.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
    else if (req.url === '/huge') res.writeHead(200).end(Buffer.alloc(2 * 1024 * 1024, 1));
    // `hops` redirects, through each redirect status in turn, then the photo.
    else if (url.pathname === '/redirect')
      res
        .writeHead([301, 302, 303, 307, 308][hops % 5]!, {
          location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/photo.jpg',
        })
        .end();
    else if (url.pathname === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (url.pathname === '/to-metadata') res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
    else if (url.pathname === '/to-huge') res.writeHead(307, { location: '/huge' }).end();
    else res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve));
  imageHostUrl = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
  await Promise.all([createS3Bucket(bucket), createGcsBucket(bucket)]);
}, 180_000);

afterAll(async () => {
  imageHost?.close();
  await agent?.close();
  await stack?.close();
});

describe('authentication and input errors', () => {
  it('answers 401 with the error JSON for missing, wrong-user and unknown keys', async () => {
    const image = await buildTestImage();
    for (const apiKey of [null, 'not-a-key']) {
      const answer = await call('POST', '/shrink', image, apiKey);
      expect(answer.status).toBe(401);
      expect(answer.json()).toEqual({ error: 'Unauthorized', message: 'Credentials are invalid.' });
    }
    const wrongUser = await request(`${stack.baseUrl}/shrink`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`user:${key}`).toString('base64')}` },
      body: image,
      dispatcher: agent,
    });
    expect(wrongUser.statusCode).toBe(401);
    await wrongUser.body.dump();
  });

  it('answers an empty upload with 400 (not 401), which is how client libraries validate a key', async () => {
    const answer = await call('POST', '/shrink', Buffer.alloc(0));
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({ error: 'BadRequest', message: 'Input is missing.' });
    expect(answer.headers['compression-count']).toBe('0');
  });

  it('answers anything but AVIF, WebP, JPEG and PNG with 415, whatever the Content-Type says', async () => {
    const gif = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');
    const response = await request(`${stack.baseUrl}/shrink`, {
      method: 'POST',
      headers: { authorization: basic(key), 'content-type': 'image/png' },
      body: gif,
      dispatcher: agent,
    });
    expect(response.statusCode).toBe(415);
    expect(await response.body.json()).toEqual({
      error: 'UnsupportedMediaType',
      message: 'File type is not supported.',
    });
  });

  it('answers an upload over the limit with 413 before reading it', async () => {
    // In process: over a socket the client may see the connection closed while it is still sending.
    const response = await stack.app.inject({
      method: 'POST',
      url: '/shrink',
      headers: { authorization: basic(key) },
      payload: Buffer.concat([await buildTestImage(), Buffer.alloc(3 * 1024 * 1024)]),
    });
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({ error: 'PayloadTooLarge' });
  });

  it('answers malformed output options with 400 and a message, and changes no count', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const before = count(await call('GET', location));
    const answer = await call('POST', location, { resize: { method: 'scale', width: 10, height: 10 } });
    expect(answer.status).toBe(400);
    expect(answer.json()).toEqual({
      error: 'BadRequest',
      message:
        'resize must be {"method": "scale"} with a width or a height, or {"method": "fit", "cover" or "thumb"} with both; each an integer from 1 to 32767.',
    });
    expect(count(answer)).toBe(before);
  });

  it('keeps outputs private to the account that made them', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const other = await stack.newKey();
    const answer = await call('GET', location, undefined, other.key);
    expect(answer.status).toBe(404);
    expect(answer.json()['error']).toBe('NotFound');
  });
});

describe('POST /shrink and GET /output', () => {
  it('compresses an upload: 201, absolute Location, the description JSON, and the image behind it', async () => {
    const { key: fresh } = await stack.newKey();
    const input = await buildTestImage({ photo: true, width: 320, height: 240 });
    const { location, answer } = await shrink(input, fresh);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(location).toMatch(new RegExp(`^${stack.baseUrl}/output/[A-Za-z0-9_-]{20,}$`));
    expect(answer.headers['compression-count']).toBe('1');
    const body = answer.json() as { input: Record<string, unknown>; output: Record<string, unknown> };
    expect(body.input).toEqual({ size: input.length, type: 'image/png' });
    expect(body.output).toMatchObject({ type: 'image/png', width: 320, height: 240, url: location });
    expect(body.output['size']).toBeLessThan(input.length);
    expect(body.output['ratio']).toBeCloseTo((body.output['size'] as number) / input.length, 3);

    const download = await call('GET', location, undefined, fresh);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-length']).toBe(String(body.output['size']));
    expect(download.headers['image-width']).toBe('320');
    expect(download.headers['image-height']).toBe('240');
    expect(download.headers['compression-count']).toBe('1');
    const meta = await sharp(download.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 320, 240]);
  });

  it('compresses the image at a source URL', async () => {
    const viaUrl = await call('POST', '/shrink', { source: { url: `${imageHostUrl}/photo.jpg` } });
    expect(viaUrl.status).toBe(201);
    expect((viaUrl.json()['output'] as Record<string, unknown>)['type']).toBe('image/jpeg');
    expect((await call('GET', String(viaUrl.headers['location']))).headers['content-type']).toBe('image/jpeg');
  });

  it('refuses source URLs that fail, are too large or are not URLs, with 400', async () => {
    const notFound = await call('POST', '/shrink', { source: { url: `${imageHostUrl}/missing.png` } });
    expect(notFound.status).toBe(400);
    expect(notFound.json()['message']).toMatch(/could not be downloaded: the server answered 404/);
    const huge = await call('POST', '/shrink', { source: { url: `${imageHostUrl}/huge` } });
    expect(huge.status).toBe(413);
    const notUrl = await call('POST', '/shrink', { source: { url: 'file:///etc/passwd' } });
    expect(notUrl.status).toBe(400);
    expect(notUrl.json()).toEqual({ error: 'BadRequest', message: 'source.url must be an http or https URL.' });
  });
});

describe('source URLs that redirect', () => {
  const fromUrl = (path: string) => call('POST', '/shrink', { source: { url: `${imageHostUrl}${path}` } });
  const cannot = (detail: string) => ({
    error: 'BadRequest',
    message: `The image at the source URL could not be downloaded: ${detail}.`,
  });

  it('follows up to 5 redirects of every kind (301, 302, 303, 307, 308)', async () => {
    const once = await fromUrl('/redirect?hops=1');
    expect(once.status, once.body.toString()).toBe(201);
    const five = await fromUrl('/redirect?hops=5');
    expect(five.status, five.body.toString()).toBe(201);
    expect(five.json()['input']).toMatchObject({ type: 'image/jpeg' });
  });

  it('refuses a 6th redirect and a loop with 400, counting nothing', async () => {
    const { key: fresh } = await stack.newKey();
    const six = await call('POST', '/shrink', { source: { url: `${imageHostUrl}/redirect?hops=6` } }, fresh);
    expect(six.status).toBe(400);
    expect(six.json()).toEqual(cannot('it redirects more than 5 times'));
    expect(count(six)).toBe(0);
    const loop = await fromUrl('/loop');
    expect(loop.status).toBe(400);
    expect(loop.json()).toEqual(cannot('its redirects go round in a loop'));
  });

  it('applies the SSRF guard to every hop and the size limit to the final response', async () => {
    const metadata = await fromUrl('/to-metadata');
    expect(metadata.status).toBe(400);
    expect(metadata.json()).toEqual({
      error: 'BadRequest',
      message: 'The source URL points to a private or reserved address.',
    });
    const huge = await fromUrl('/to-huge');
    expect(huge.status).toBe(413);
    expect(huge.json()['error']).toBe('PayloadTooLarge');
  });
});

describe('limits on the work one image makes', () => {
  /** A real 1 × 1 PNG whose header is rewritten to declare other dimensions (CRC made valid again). */
  async function pngDeclaring(width: number, height: number): Promise<Buffer> {
    const png = Buffer.from(await buildTestImage({ width: 1, height: 1 }));
    png.writeUInt32BE(width, 16);
    png.writeUInt32BE(height, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
    return png;
  }

  it('answers absurd dimensions with 413 from the header, before decoding', async () => {
    const answer = await call('POST', '/shrink', await pngDeclaring(2 ** 31 - 1, 1));
    expect(answer.status).toBe(413);
    expect(answer.json()).toEqual({
      error: 'PayloadTooLarge',
      message: 'The image has more than 50000000 pixels; it cannot be processed.',
    });
    expect(answer.headers['compression-count']).toBeDefined();
  });

  it('refuses work over the budget with 413 at once, counting nothing', async () => {
    const { key: fresh } = await stack.newKey();
    const started = Date.now();
    const answer = await call('POST', '/shrink', await pngDeclaring(7_000, 7_000), fresh);
    expect(answer.status).toBe(413);
    expect(answer.json()).toEqual({
      error: 'PayloadTooLarge',
      message: 'The image is too large to process with these options; send a smaller image or ask for fewer types.',
    });
    expect(count(answer)).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('an identical upload', () => {
  it('is answered from the earlier output: same Location, nothing counted; another account gets its own', async () => {
    const { key: first } = await stack.newKey();
    const { key: second } = await stack.newKey();
    const image = await buildTestImage({ photo: true, width: 120, height: 90 });
    const one = await shrink(image, first);
    const again = await shrink(image, first);
    expect(count(one.answer)).toBe(1);
    expect(count(again.answer)).toBe(1);
    expect(again.location).toBe(one.location);
    expect(again.answer.json()).toEqual(one.answer.json());
    const other = await shrink(image, second);
    expect(other.location).not.toBe(one.location);
    expect(count(other.answer)).toBe(1);
    expect((await call('GET', one.location, undefined, second)).status).toBe(404);
    // A different upload is compressed and counted as usual.
    const different = await shrink(await buildTestImage({ photo: true, width: 121, height: 90 }), first);
    expect(count(different.answer)).toBe(2);
  });
});

describe('POST /output', () => {
  it('resizes with each method and never enlarges', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true, width: 400, height: 300 }));
    const cases = [
      [{ method: 'scale', width: 200 }, [200, 150]],
      [{ method: 'fit', width: 100, height: 100 }, [100, 75]],
      [{ method: 'cover', width: 100, height: 100 }, [100, 100]],
      [{ method: 'thumb', width: 120, height: 80 }, [120, 80]],
      [{ method: 'scale', width: 800 }, [400, 300]],
    ] as const;
    for (const [resize, [width, height]] of cases) {
      const answer = await call('POST', location, { resize });
      expect(answer.status, JSON.stringify(resize)).toBe(200);
      expect([answer.headers['image-width'], answer.headers['image-height']]).toEqual([String(width), String(height)]);
      const meta = await sharp(answer.body).metadata();
      expect([meta.width, meta.height]).toEqual([width, height]);
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
    }
  });

  it('converts to one type, to the smallest of a list, and to the smallest of all with */*', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const webp = await call('POST', location, { convert: { type: 'image/webp' } });
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.body).metadata()).format).toBe('webp');
    const sizes: Record<string, number> = {};
    for (const type of ['image/avif', 'image/webp', 'image/jpeg', 'image/png']) {
      sizes[type] = (await call('POST', location, { convert: { type } })).body.length;
    }
    const smallest = Object.entries(sizes).sort((a, b) => a[1] - b[1])[0]![0];
    const any = await call('POST', location, { convert: { type: '*/*' } });
    expect(any.headers['content-type']).toBe(smallest);
    const pair = await call('POST', location, { convert: { type: ['image/png', 'image/jpeg'] } });
    expect(pair.headers['content-type']).toBe(sizes['image/png']! < sizes['image/jpeg']! ? 'image/png' : 'image/jpeg');
  });

  it('needs a background to turn a transparent image into a JPEG, and fills it when given', async () => {
    const { location } = await shrink(await buildTestImage({ subject: true, alpha: 0 }));
    const refused = await call('POST', location, { convert: { type: 'image/jpeg' } });
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual({
      error: 'BadRequest',
      message: 'Converting a transparent image to image/jpeg requires transform.background.',
    });
    const filled = await call('POST', location, {
      convert: { type: 'image/jpeg' },
      transform: { background: '#ff0000' },
    });
    expect(filled.status).toBe(200);
    const { data } = await sharp(filled.body).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240); // the transparent corner is now red
    expect(data[1]).toBeLessThan(20);
  });

  it('preserves copyright, creation and location from a JPEG, read back with an EXIF reader', async () => {
    const original = await buildTestImage({
      type: 'image/jpeg',
      photo: true,
      exif: {
        IFD0: { Copyright: 'Copyright 2026 Ada Lovelace' },
        IFD2: { DateTimeOriginal: '2026:01:02 03:04:05' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 30/1' },
      },
    });
    const { location } = await shrink(original);
    const plain = await call('GET', location);
    expect(await exifr.parse(plain.body, { gps: true })).toBeUndefined(); // the compressed download drops metadata
    const kept = await call('POST', location, { preserve: ['copyright', 'creation', 'location'] });
    expect(kept.status).toBe(200);
    const tags = (await exifr.parse(kept.body, { gps: true, reviveValues: false })) as Record<string, unknown>;
    expect(tags['Copyright']).toBe('Copyright 2026 Ada Lovelace');
    expect(tags['DateTimeOriginal']).toBe('2026:01:02 03:04:05');
    expect(tags['latitude']).toBeCloseTo(52.5, 3);
    expect(tags['longitude']).toBeCloseTo(-0.125, 3);
    const onlyCopyright = (await exifr.parse((await call('POST', location, { preserve: ['copyright'] })).body, {
      gps: true,
    })) as Record<string, unknown>;
    expect(onlyCopyright['Copyright']).toBe('Copyright 2026 Ada Lovelace');
    expect(onlyCopyright['latitude']).toBeUndefined();
  });

  it('preserves into a PNG as a small eXIf chunk, never the location; absent metadata adds nothing', async () => {
    const original = await buildTestImage({
      type: 'image/jpeg',
      photo: true,
      exif: { IFD0: { Copyright: 'CC BY 4.0 Grace Hopper' }, IFD2: { DateTimeOriginal: '2025:12:31 23:59:58' } },
    });
    const { location } = await shrink(original);
    const png = await call('POST', location, {
      preserve: ['copyright', 'creation', 'location'],
      convert: { type: 'image/png' },
    });
    const tags = (await exifr.parse(png.body, { gps: true, reviveValues: false })) as Record<string, unknown>;
    expect(tags['Copyright']).toBe('CC BY 4.0 Grace Hopper');
    expect(tags['DateTimeOriginal']).toBe('2025:12:31 23:59:58');
    expect(tags['latitude']).toBeUndefined();
    // Spec: copyright up to 90 bytes plus its text, creation about 70.
    const plain = await call('POST', location, { convert: { type: 'image/png' } });
    expect(png.body.length - plain.body.length).toBeLessThanOrEqual(90 + 'CC BY 4.0 Grace Hopper'.length + 70);

    const { location: bare } = await shrink(await buildTestImage({ photo: true }));
    const base = (await call('GET', bare)).body.length;
    const same = await call('POST', bare, { preserve: ['copyright', 'creation'] });
    expect(await exifr.parse(same.body, { xmp: true, ihdr: false })).toBeUndefined();
    expect(same.body.length).toBe(base);
  });
});

describe('store', () => {
  it('puts the image into an S3 bucket with SigV4, public-read by default, and answers with its address', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const answer = await call('POST', location, {
      store: {
        service: 's3',
        aws_access_key_id: resolveInfra().s3.accessKeyId,
        aws_secret_access_key: resolveInfra().s3.secretAccessKey,
        region: 'us-east-1',
        path: `${bucket}/images/cat.png`,
        headers: { 'Cache-Control': 'public, max-age=31536000' },
      },
    });
    expect(answer.status, answer.body.toString()).toBe(200);
    expect(answer.headers['location']).toBe(`${resolveInfra().s3.url}/${bucket}/images/cat.png`);
    expect(answer.headers['image-width']).toBe('320');
    const stored = await readS3Object(bucket, 'images/cat.png');
    expect(stored.status).toBe(200);
    expect(stored.headers['content-type']).toBe('image/png');
    expect(stored.headers['cache-control']).toBe('public, max-age=31536000');
    expect(stored.body.equals((await call('GET', location)).body)).toBe(true);
    expect((await readS3ObjectAcl(bucket, 'images/cat.png')).body.toString()).toContain(
      'http://acs.amazonaws.com/groups/global/AllUsers',
    );
  });

  it('sends no ACL with no-acl, stores the resized image, and counts one more per operation', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const before = count(await call('GET', location));
    const answer = await call('POST', location, {
      resize: { method: 'scale', width: 100 },
      store: {
        service: 's3',
        aws_access_key_id: resolveInfra().s3.accessKeyId,
        aws_secret_access_key: resolveInfra().s3.secretAccessKey,
        region: 'us-east-1',
        path: `${bucket}/small.png`,
        acl: 'no-acl',
      },
    });
    expect(answer.status).toBe(200);
    expect(count(answer)).toBe(before + 2);
    expect((await sharp((await readS3Object(bucket, 'small.png')).body).metadata()).width).toBe(100);
    expect((await readS3ObjectAcl(bucket, 'small.png')).body.toString()).not.toContain('AllUsers');
  });

  it('maps a refused signature to 400 with the provider code, and charges nothing', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const before = count(await call('GET', location));
    const answer = await call('POST', location, {
      store: {
        service: 's3',
        aws_access_key_id: resolveInfra().s3.accessKeyId,
        aws_secret_access_key: 'wrong',
        region: 'us-east-1',
        path: `${bucket}/x.png`,
      },
    });
    expect(answer.status).toBe(400);
    expect(answer.json()['message']).toMatch(
      /^The s3 provider refused to store the image \(HTTP 403: SignatureDoesNotMatch\)/,
    );
    expect(count(answer)).toBe(before);
  });

  it('uploads to a GCS bucket with the bearer token and keeps Cache-Control as object metadata', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const answer = await call('POST', location, {
      convert: { type: 'image/webp' },
      store: {
        service: 'gcs',
        gcp_access_token: 'ya29.local-test-token',
        path: `${bucket}/nested/dir/cat.webp`,
        headers: { 'Cache-Control': 'no-cache' },
      },
    });
    expect(answer.status, answer.body.toString()).toBe(200);
    expect(answer.headers['location']).toBe(`${resolveInfra().gcsUrl}/${bucket}/nested/dir/cat.webp`);
    const { data, metadata } = await readGcsObject(bucket, 'nested/dir/cat.webp');
    expect((await sharp(data).metadata()).format).toBe('webp');
    expect(metadata).toMatchObject({ contentType: 'image/webp', cacheControl: 'no-cache' });
  });

  it('validates store options before any work', async () => {
    const { location } = await shrink(await buildTestImage({ photo: true }));
    const answer = await call('POST', location, {
      store: { service: 's3', region: 'us-east-1', path: `${bucket}/x.png` },
    });
    expect(answer.status).toBe(400);
    expect(answer.json()['message']).toBe('store must give aws_access_key_id or cloud_access_key_id.');
    const badRegion = await call('POST', location, {
      store: {
        service: 's3',
        aws_access_key_id: 'a',
        aws_secret_access_key: 'b',
        region: 'evil.com/x',
        path: `${bucket}/x.png`,
      },
    });
    expect(badRegion.json()['message']).toBe('store.region must be a region name such as us-west-1.');
    const unknownService = await call('POST', location, { store: { service: 'azure', path: `${bucket}/x.png` } });
    expect(unknownService.json()['message']).toBe('store must have service set to one of "s3", "gcs"');
  });
});

describe('compression counting', () => {
  it('counts the spec example: one upload, the optimized download and two resizes make 3', async () => {
    const { key: fresh } = await stack.newKey();
    const { location, answer } = await shrink(await buildTestImage({ photo: true }), fresh);
    expect(count(answer)).toBe(1);
    expect(count(await call('GET', location, undefined, fresh))).toBe(1);
    expect(count(await call('POST', location, { resize: { method: 'scale', width: 100 } }, fresh))).toBe(2);
    expect(count(await call('POST', location, { resize: { method: 'fit', width: 50, height: 50 } }, fresh))).toBe(3);
    expect(count(await call('POST', location, { preserve: ['copyright'] }, fresh))).toBe(3);
    expect(
      count(
        await call(
          'POST',
          location,
          { resize: { method: 'scale', width: 80 }, convert: { type: 'image/webp' } },
          fresh,
        ),
      ),
    ).toBe(5);
  });

  it('stays exact under concurrent requests', async () => {
    const { key: fresh, accountId } = await stack.newKey();
    // Distinct images: an identical upload would be answered from the first one's output, uncounted.
    const images = await Promise.all(
      Array.from({ length: 8 }, (_, i) => buildTestImage({ photo: true, width: 64 + i, height: 64 })),
    );
    const answers = await Promise.all(images.map((image) => call('POST', '/shrink', image, fresh)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(answers.map(count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await stack.counts.current(accountId)).toBe(8);
  });
});

describe('monthly quota and SSRF guard', () => {
  let limited: ImagesStack;
  let limitedAgent: Agent;

  beforeAll(async () => {
    limited = await startImagesStack({ monthlyQuota: 2, avifBudgetMs: 1 });
    limitedAgent = new Agent({ connect: { ca: limited.certificate } });
  }, 120_000);
  afterAll(async () => {
    await limitedAgent?.close();
    await limited?.close();
  });

  const post = async (k: string, path: string, body: Buffer | object) => {
    const isJson = !Buffer.isBuffer(body);
    const response = await request(`${limited.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: basic(k), ...(isJson ? { 'content-type': 'application/json' } : {}) },
      body: isJson ? JSON.stringify(body) : body,
      dispatcher: limitedAgent,
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: (await response.body.json()) as Record<string, unknown>,
    };
  };

  it('answers 429 TooManyRequests once the month is used up, with the count', async () => {
    const { key: k } = await limited.newKey();
    const image = (width: number) => buildTestImage({ photo: true, width, height: 32 });
    expect((await post(k, '/shrink', await image(32))).status).toBe(201);
    const second = await post(k, '/shrink', await image(33));
    expect(second.status).toBe(201);
    const third = await post(k, '/shrink', await image(34));
    expect(third.status).toBe(429);
    expect(third.body).toEqual({
      error: 'TooManyRequests',
      message: 'Your monthly limit of 2 compressions has been reached.',
    });
    expect(third.headers['compression-count']).toBe('2');
    const resize = await post(k, new URL(String(second.headers['location'] ?? '')).pathname, {
      resize: { method: 'scale', width: 10 },
    });
    expect(resize.status).toBe(429);
  });

  it('makes WebP when AVIF takes longer than its budget (IMAGE_AVIF_BUDGET_MS, 1 ms here)', async () => {
    const { key: k } = await limited.newKey();
    const upload = await post(k, '/shrink', await buildTestImage({ photo: true, width: 64, height: 48 }));
    const path = new URL(String(upload.headers['location'] ?? '')).pathname;
    const response = await request(`${limited.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: basic(k), 'content-type': 'application/json' },
      body: JSON.stringify({ convert: { type: 'image/avif' } }),
      dispatcher: limitedAgent,
    });
    const data = Buffer.from(await response.body.arrayBuffer());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect((await sharp(data).metadata()).format).toBe('webp');
  });

  it('refuses a source URL on a loopback address unless allowlisted', async () => {
    const { key: k } = await limited.newKey();
    const answer = await post(k, '/shrink', { source: { url: `${imageHostUrl}/photo.jpg` } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'BadRequest',
      message: 'The source URL points to a private or reserved address.',
    });
  });
});

describe('a path parameter longer than the router allows', () => {
  it("is 414 in Tinify's shape, with the account's Compression-Count", async () => {
    const answer = await call('GET', `/output/${'x'.repeat(8193)}`);
    expect(answer.status).toBe(414);
    expect(answer.json()).toEqual({ error: 'URITooLong', message: 'A path parameter is longer than 8192 characters.' });
    expect(answer.headers['compression-count']).toMatch(/^\d+$/);
    const anonymous = await call('POST', `/output/${'x'.repeat(8193)}`, { preserve: ['copyright'] }, null);
    expect(anonymous.status).toBe(414);
    expect(anonymous.headers['compression-count']).toBeUndefined();
  });
});

describe('the OpenAPI document', () => {
  it('describes the binary answers of /output/{id} under each image type, not as JSON', async () => {
    const document = JSON.parse((await stack.app.inject({ method: 'GET', url: '/openapi.json' })).body) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: { format?: string } }> }> }>
      >;
    };
    for (const method of ['get', 'post']) {
      const ok = document.paths['/output/{id}']![method]!.responses['200']!;
      expect(Object.keys(ok.content!).sort(), method).toEqual(['image/avif', 'image/jpeg', 'image/png', 'image/webp']);
      expect(ok.content!['image/png']!.schema.format).toBe('binary');
    }
  });
});
