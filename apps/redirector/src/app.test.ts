import type { ShortlinkClicked } from '@platform/contracts';
import { createLogger } from '@platform/telemetry';
import { describe, expect, it } from 'vitest';
import { buildRedirector } from './app.js';
import type { ClickBuffer } from './click-buffer.js';
import type { Resolver, Target } from './resolver.js';
import type { RedirectTracing } from './tracing.js';

const target = (id: string, status: 301 | 302 = 301, qrCodes: string[] = []): Target => ({
  id,
  organization_id: 'o',
  group_guid: 'g',
  long_url: `https://example.com/${id}`,
  status,
  expires_at: null,
  qr_code_ids: qrCodes,
});

/** A resolver with `memory` already cached and `store` behind it. */
function resolver(memory: Record<string, Target | null>, store: Record<string, Target> = {}) {
  const reads: string[] = [];
  return {
    reads,
    resolver: {
      cached: (id: string) => memory[id],
      resolve: async (id: string) => {
        reads.push(id);
        return store[id] ?? null;
      },
    } as unknown as Resolver,
  };
}

async function redirector(r: Resolver, options: { tracing?: RedirectTracing; trustProxy?: number } = {}) {
  const clicks: ShortlinkClicked[] = [];
  const answers: number[] = [];
  const seconds: number[] = [];
  const app = await buildRedirector({
    logger: createLogger({ name: 't', level: 'silent' }),
    readiness: [],
    resolver: r,
    clicks: { add: (click: ShortlinkClicked) => void clicks.push(click) } as unknown as ClickBuffer,
    defaultDomain: 'sho.rt',
    replicaId: 'r1',
    cacheControl: 'private, max-age=90',
    onAnswer: (status, took) => {
      answers.push(status);
      seconds.push(took);
    },
    ...options,
  });
  return { app, clicks, answers, seconds };
}

describe('the redirect route', () => {
  it('answers a link in memory at once, with one click carrying what the request said', async () => {
    const { app, clicks, answers, seconds } = await redirector(
      resolver({ 'sho.rt/abc': target('sho.rt/abc') }).resolver,
      { trustProxy: 1 },
    );
    const response = await app.inject({
      url: '/abc?utm=x',
      headers: {
        host: 'SHO.RT',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
        referer: 'https://news.example/',
        'x-forwarded-for': '203.0.113.7',
      },
    });
    expect(response.statusCode).toBe(301);
    // The short URL's query goes on to the destination, and into the click.
    expect(response.headers.location).toBe('https://example.com/sho.rt/abc?utm=x');
    expect(response.headers['cache-control']).toBe('private, max-age=90');
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toMatchObject({
      id: 'sho.rt/abc',
      referrer: 'https://news.example/',
      client_ip: '203.0.113.7',
      bot: false,
      qr: false,
      passed_params: 'utm=x',
    });
    expect(clicks[0]!.click_id).toMatch(/^r1:[0-9a-z]+:1$/);
    expect(answers).toEqual([301]);
    // Its time from routing to the answer, in seconds, for the latency histogram.
    expect(seconds).toHaveLength(1);
    expect(seconds[0]).toBeGreaterThan(0);
    expect(seconds[0]).toBeLessThan(1);
  });

  it('answers a HEAD like a GET but counts no click (link unfurlers and uptime checks send it)', async () => {
    const { app, clicks } = await redirector(resolver({ 'sho.rt/abc': target('sho.rt/abc') }).resolver);
    const response = await app.inject({ method: 'HEAD', url: '/abc', headers: { host: 'sho.rt' } });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('https://example.com/sho.rt/abc');
    expect(clicks).toEqual([]);
    await app.inject({ url: '/abc', headers: { host: 'sho.rt' } });
    expect(clicks).toHaveLength(1);
  });

  it("counts a redirect with the marker of one of the link's QR codes as that code's scan, any other as a click", async () => {
    const { app, clicks } = await redirector(
      resolver({ 'sho.rt/qr1': target('sho.rt/qr1', 301, ['Qaaaa', 'Qbbbb']) }).resolver,
    );
    const locations: string[] = [];
    for (const url of ['/qr1?qr=Qbbbb', '/qr1?utm=1&qr=Qaaaa', '/qr1?qr=Qzzzz', '/qr1', '/qr1?qr=Qaaaa%00']) {
      const response = await app.inject({ url, headers: { host: 'sho.rt' } });
      expect(response.statusCode).toBe(301);
      locations.push(String(response.headers.location));
    }
    expect(clicks.map((c) => [c.qr, c.qrcode_id, c.passed_params])).toEqual([
      [true, 'Qbbbb', ''],
      [true, 'Qaaaa', 'utm=1'],
      [false, null, 'qr=Qzzzz'],
      [false, null, ''],
      [false, null, 'qr=Qaaaa%00'],
    ]);
    // The marker of a scan stays with us; anything else in the query goes on.
    const destination = 'https://example.com/sho.rt/qr1';
    expect(locations).toEqual([
      destination,
      `${destination}?utm=1`,
      `${destination}?qr=Qzzzz`,
      destination,
      `${destination}?qr=Qaaaa%00`,
    ]);
  });

  it('reads a link that is not in memory, decodes an escaped back-half, and flags a crawler', async () => {
    const { resolver: r, reads } = resolver({}, { 'sho.rt/a-b': target('sho.rt/a-b', 302) });
    const { app, clicks } = await redirector(r);
    const response = await app.inject({
      url: '/a%2Db',
      headers: { host: 'sho.rt', 'user-agent': 'Slackbot-LinkExpanding 1.0' },
    });
    expect(response.statusCode).toBe(302);
    expect(reads).toEqual(['sho.rt/a-b']);
    expect(clicks[0]).toMatchObject({ id: 'sho.rt/a-b', bot: true, referrer: null });
  });

  it('answers unknown links and paths that cannot be back-halves with the 404 page, and records no click', async () => {
    const { resolver: r, reads } = resolver({ 'sho.rt/gone': null });
    const { app, clicks, answers } = await redirector(r);
    expect((await app.inject({ url: '/%E0%A4%A', headers: { host: 'sho.rt' } })).statusCode).toBe(400);
    for (const url of ['/gone', '/a/b', '/a%2Fb', '/unknown']) {
      const response = await app.inject({ url, headers: { host: 'sho.rt' } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
    }
    expect(reads).toEqual(['sho.rt/unknown']);
    expect(clicks).toEqual([]);
    expect(answers).toEqual([404, 404, 404, 404]);
  });

  it('ends a sampled span with the status it answered', async () => {
    const ended: number[] = [];
    const tracing: RedirectTracing = {
      start: () => ({ end: (status) => void ended.push(status), fail: () => undefined }),
    };
    const { app } = await redirector(resolver({ 'sho.rt/abc': target('sho.rt/abc') }).resolver, { tracing });
    await app.inject({ url: '/abc', headers: { host: 'sho.rt' } });
    await app.inject({ url: '/nope', headers: { host: 'sho.rt' } });
    expect(ended).toEqual([301, 404]);
  });
});
