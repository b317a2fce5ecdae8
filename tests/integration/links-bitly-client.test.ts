import { globalAgent } from 'node:https';
import { connect, type ConnectionOptions } from 'node:tls';
import { BitlyClient } from 'bitly';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@platform/testing';
import { startLinksStack, type LinksStack } from '../support/links-stack.js';
import { redirect, startAggregatorFor } from '../support/links-traffic.js';
import { startTlsTerminator, type TlsTerminator } from '../support/tls-terminator.js';

/**
 * The official `bitly` npm client (7.1.2), unmodified: only its documented options (`apiUrl`, `domain`) point
 * it here. It speaks HTTPS to port 443 of `apiUrl` only, so Node's default HTTPS agent, which it uses, trusts
 * our certificate and takes that port to the TLS terminator (as `curl --resolve` would). It turns any id that
 * ends in a back-half of six or more characters into `bit.ly/<hash>`, so the platform's default short domain is
 * `bit.ly` for this test.
 */
const DOMAIN = 'bit.ly';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

let stack: LinksStack;
let tls: TlsTerminator;
let aggregator: { stop(): Promise<void> };
let bitly: BitlyClient;
const trusted = globalAgent.options.ca;
const connectDirectly = globalAgent.createConnection;

beforeAll(async () => {
  stack = await startLinksStack({ LINKS_DEFAULT_DOMAIN: DOMAIN }, { dispatcher: false });
  tls = await startTlsTerminator(() => Number(new URL(stack.url).port));
  globalAgent.options.ca = tls.certificate;
  (globalAgent as unknown as { createConnection: unknown }).createConnection = (
    options: ConnectionOptions,
    connected: () => void,
  ) => connect({ ...options, port: tls.port }, connected);
  const { admin } = await stack.newOrganization();
  bitly = new BitlyClient(admin.token, { apiUrl: '127.0.0.1', domain: DOMAIN });
  aggregator = await startAggregatorFor(stack);
}, 180_000);

afterAll(async () => {
  globalAgent.options.ca = trusted;
  globalAgent.createConnection = connectDirectly;
  await aggregator?.stop();
  await tls?.close();
  await stack?.close();
});

describe('the official bitly client', () => {
  it('shortens, reads and expands a link', async () => {
    const made = await bitly.shorten('https://example.com/official-client');
    expect(made).toMatchObject({
      long_url: 'https://example.com/official-client',
      id: expect.stringMatching(/^bit\.ly\//),
    });
    // The same long URL again is the same link (Bitly's shorten), whichever form of the id the client is given.
    expect((await bitly.shorten('https://example.com/official-client')).id).toBe(made.id);
    const hash = made.id.split('/')[1]!;
    for (const item of [made.id, made.link, hash]) {
      expect(await bitly.getBitlink(item)).toMatchObject({ id: made.id, long_url: made.long_url });
      expect(await bitly.info(item)).toMatchObject({ id: made.id });
    }
    expect(await bitly.expand(made.id)).toMatchObject({ id: made.id, long_url: made.long_url, link: made.link });
  });

  it('reads clicks by day and by minute, referrers and countries of real redirects', async () => {
    const made = await bitly.shorten('https://example.com/official-client-clicks');
    const hash = made.id.split('/')[1]!;
    for (let i = 0; i < 3; i++)
      expect(
        await redirect(stack, DOMAIN, `/${hash}`, {
          'user-agent': FIREFOX,
          referer: 'https://t.co/abc',
          'x-forwarded-for': '203.0.113.9',
        }),
      ).toBe(301);
    const byDay = await waitFor(
      async () => {
        const answer = await bitly.clicks(made.id);
        return answer.link_clicks.reduce((sum, day) => sum + day.clicks, 0) >= 3 && answer;
      },
      { what: 'three clicks counted', timeoutMs: 30_000 },
    );
    expect(byDay).toMatchObject({ unit: 'day', units: -1 });
    expect(byDay.link_clicks.reduce((sum, day) => sum + day.clicks, 0)).toBe(3);
    expect(await bitly.clicksByDay(made.id)).toMatchObject({ unit: 'day' });
    const byMinute = await bitly.clicksByMinute(made.id);
    expect(byMinute).toMatchObject({ unit: 'minute' });
    expect((byMinute as { link_clicks: Array<{ clicks: number }> }).link_clicks.reduce((s, m) => s + m.clicks, 0)).toBe(
      3,
    );
    expect((await bitly.referrers(made.id)).metrics).toEqual([{ clicks: 3, value: 'https://t.co/abc' }]);
    expect(await bitly.countries(made.id)).toMatchObject({ facet: 'countries', unit: 'day', units: -1 });
  });

  it("throws Bitly's error body for a bad long URL and an unknown link", async () => {
    await expect(bitly.shorten('not a url')).rejects.toMatchObject({
      message: 'INVALID_ARG_LONG_URL',
      errors: [{ field: 'long_url', error_code: 'invalid' }],
    });
    await expect(bitly.getBitlink(`${DOMAIN}/nosuch7`)).rejects.toMatchObject({ message: 'NOT_FOUND', errors: [] });
  });
});
