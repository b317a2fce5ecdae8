import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EgressBlockedError, EgressRedirectError, createEgressClient, createEgressGuard } from './index.js';

let server: Server;
let base: string;
const client = createEgressClient(createEgressGuard({ allow: ['127.0.0.1/32'] }));

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    if (url.pathname === '/file') return res.writeHead(200).end(req.headers['x-token'] ?? 'file');
    if (url.pathname === '/chain')
      return res.writeHead(hops % 2 ? 307 : 302, { location: hops > 1 ? `/chain?hops=${hops - 1}` : '/file' }).end();
    if (url.pathname === '/loop') return res.writeHead(301, { location: '/loop' }).end();
    if (url.pathname === '/private') return res.writeHead(308, { location: 'http://169.254.169.254/latest' }).end();
    if (url.pathname === '/other-host')
      return res.writeHead(303, { location: `http://127.0.0.2:${port()}/file` }).end();
    if (url.pathname === '/big') return res.writeHead(302, { location: '/big-file' }).end();
    if (url.pathname === '/big-file') return res.writeHead(200).end(Buffer.alloc(4096));
    if (url.pathname === '/ftp') return res.writeHead(302, { location: 'ftp://example.com/x' }).end();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${port()}`;
});
afterAll(async () => {
  await client.close();
  server.close();
});

const port = () => (server.address() as AddressInfo).port;
const get = (
  path: string,
  extra: { maxRedirects?: number; maxBodyBytes?: number; headers?: Record<string, string> } = {},
) => client.download({ url: `${base}${path}`, timeoutMs: 5_000, maxBodyBytes: 1024, ...extra });

describe('egress download and redirects', () => {
  it('returns a redirect as it is unless asked to follow', async () => {
    expect((await get('/chain?hops=1')).status).toBe(307);
  });

  it('follows up to maxRedirects hops of every redirect status and sends headers to the first origin only', async () => {
    const answer = await get('/chain?hops=5', { maxRedirects: 5, headers: { 'x-token': 't' } });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('t');
  });

  it('refuses one hop more than allowed, and a loop', async () => {
    await expect(get('/chain?hops=6', { maxRedirects: 5 })).rejects.toMatchObject({ code: 'too_many_redirects' });
    await expect(get('/loop', { maxRedirects: 5 })).rejects.toBeInstanceOf(EgressRedirectError);
    await expect(get('/loop', { maxRedirects: 5 })).rejects.toMatchObject({ code: 'redirect_loop' });
    await expect(get('/ftp', { maxRedirects: 5 })).rejects.toMatchObject({ code: 'bad_redirect' });
  });

  it('applies the guard to every hop: a redirect to a refused address fails as a direct request would', async () => {
    await expect(get('/private', { maxRedirects: 5 })).rejects.toBeInstanceOf(EgressBlockedError);
    await expect(get('/other-host', { maxRedirects: 5 })).rejects.toBeInstanceOf(EgressBlockedError);
    await expect(
      client.download({ url: `http://127.0.0.2:${port()}/file`, timeoutMs: 5_000, maxBodyBytes: 1024 }),
    ).rejects.toBeInstanceOf(EgressBlockedError);
  });

  it('applies the size limit to the final response', async () => {
    await expect(get('/big', { maxRedirects: 5 })).rejects.toMatchObject({ code: 'download_too_large' });
  });
});
