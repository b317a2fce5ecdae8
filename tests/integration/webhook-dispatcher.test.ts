import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, uniqueName, waitFor, type WebhookReceiver } from '@platform/testing';
import { verifyStandardSignature, type DeliveryStore } from '@platform/webhooks';
import { HARNESS_SECRET, startDispatcherHarness, type DispatcherHarness } from '../support/dispatcher-harness.js';

let harness: DispatcherHarness;
let store: DeliveryStore;
let receiver: WebhookReceiver;
let forbidden: WebhookReceiver;
let outcomes: DispatcherHarness['outcomes'];
const secret = HARNESS_SECRET;
const request: DispatcherHarness['request'] = (...args) => harness.request(...args);
const sealer = { seal: (plaintext: string) => harness.seal(plaintext) };

beforeAll(async () => {
  harness = await startDispatcherHarness({ disableAfterMs: 1500 });
  ({ store, outcomes } = harness);
  receiver = await startWebhookReceiver('/webhooks', '127.0.0.2');
  forbidden = await startWebhookReceiver('/webhooks', '127.0.0.1');
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
  await forbidden?.close();
});

// The allowlist opens 127.0.0.2 (where `receiver` listens) and nothing else; `forbidden` is on 127.0.0.1.
const allowedUrl = () => receiver.url;

describe('webhook dispatcher', () => {
  it('retries failures with the same event id until the target accepts, and never follows redirects', async () => {
    let calls = 0;
    receiver.respondWith((req) => {
      if (!req.path.includes('retry')) return { status: 200 };
      calls++;
      if (calls === 1) return { status: 500 };
      if (calls === 2) return { status: 302, headers: { location: 'http://127.0.0.2/elsewhere' } };
      return { status: 204 };
    });
    const target = uniqueName('t');
    const { deliveryId, eventId } = await request(target, `${allowedUrl()}/retry`);
    await waitFor(async () => (await store.get(deliveryId))?.status === 'delivered', {
      what: 'delivered after retries',
    });
    const hits = receiver.requests.filter((r) => r.path.includes('retry'));
    expect(hits).toHaveLength(3);
    expect(new Set(hits.map((h) => h.headers['webhook-id']))).toEqual(new Set([eventId]));
    expect(receiver.requests.some((r) => r.path.includes('elsewhere'))).toBe(false);
    for (const hit of hits) {
      const ok = verifyStandardSignature(
        {
          id: hit.headers['webhook-id'] as string,
          timestamp: hit.headers['webhook-timestamp'] as string,
          signature: hit.headers['webhook-signature'] as string,
        },
        hit.body,
        [secret],
      );
      expect(ok).toBe(true);
    }
    const attempts = await store.attemptsFor(deliveryId);
    expect(attempts.map((a) => a.status)).toEqual([500, 302, 204]);
    await waitFor(() => outcomes.find((o) => o.type === 'outcome' && o.value['delivery_id'] === deliveryId), {
      what: 'outcome event',
    });
    // Two failed attempts in one streak: the producer hears of the first only.
    const failing = outcomes.filter((o) => o.type === 'failing' && o.value['target_id'] === target);
    expect(failing).toEqual([
      {
        type: 'failing',
        value: expect.objectContaining({
          producer: 'test',
          tenant_id: 'tenant_1',
          delivery_id: deliveryId,
          last_status: 500,
        }),
      },
    ]);
  });

  it('retries a target that times out, and honours Retry-After on 429', async () => {
    let timeouts = 0;
    let limited = 0;
    receiver.respondWith((req) => {
      if (req.path.endsWith('/timeout')) return { status: 200, delayMs: ++timeouts === 1 ? 1500 : 0 };
      if (req.path.endsWith('/limited'))
        return ++limited === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 };
      return { status: 200 };
    });
    const timedOut = await request(uniqueName('t'), `${allowedUrl()}/timeout`);
    const throttled = await request(uniqueName('t'), `${allowedUrl()}/limited`);
    await waitFor(async () => (await store.get(timedOut.deliveryId))?.status === 'delivered', {
      what: 'delivered after a timeout',
    });
    const [slow, ok] = await store.attemptsFor(timedOut.deliveryId);
    expect(slow?.status).toBeNull();
    expect(slow?.error).toMatch(/timeout|abort/i);
    expect(ok?.status).toBe(200);
    await waitFor(async () => (await store.get(throttled.deliveryId))?.status === 'delivered', {
      what: 'delivered after 429',
    });
    const [first, second] = await store.attemptsFor(throttled.deliveryId);
    expect(first?.status).toBe(429);
    // The schedule alone would retry after ~2.5 ms here; Retry-After: 1 holds it back a second.
    expect(second!.started_at.getTime() - first!.started_at.getTime()).toBeGreaterThanOrEqual(950);
  });

  it('ignores a re-published request for the same delivery', async () => {
    const target = uniqueName('t');
    const eventId = uniqueName('event');
    const first = await request(target, `${allowedUrl()}/once`, eventId);
    await request(target, `${allowedUrl()}/once`, eventId);
    await waitFor(async () => (await store.get(first.deliveryId))?.status === 'delivered', { what: 'delivered' });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests.filter((r) => r.path.endsWith('/once'))).toHaveLength(1);
  });

  it('disables a target that answers 410 and tells its producer', async () => {
    receiver.respondWith((req) => ({ status: req.path.includes('gone') ? 410 : 200 }));
    const target = uniqueName('t');
    const { deliveryId } = await request(target, `${allowedUrl()}/gone`);
    await waitFor(async () => (await store.get(deliveryId))?.status === 'cancelled', { what: 'cancelled' });
    const event = await waitFor(() => outcomes.find((o) => o.type === 'disabled' && o.value['target_id'] === target), {
      what: 'TargetDisabled',
    });
    expect(event.value).toMatchObject({ producer: 'test', tenant_id: 'tenant_1', reason: 'target answered 410' });
  });

  it('delivers nothing to a private address that is not allowlisted, by literal or by DNS name', async () => {
    const literal = await request(uniqueName('t'), forbidden.url);
    const byName = await request(uniqueName('t'), forbidden.url.replace('127.0.0.1', 'localhost'));
    for (const { deliveryId } of [literal, byName]) {
      await waitFor(async () => (await store.get(deliveryId))?.status === 'dead_lettered', { what: 'dead-lettered' });
      const [attempt] = await store.attemptsFor(deliveryId);
      expect(attempt?.status).toBeNull();
      expect(attempt?.error).toMatch(/egress_blocked/);
    }
    expect(forbidden.requests).toHaveLength(0);
  });

  it('gets an OAuth client-credentials token for targets that want one, and a new one after a 401', async () => {
    let issued = 0;
    const valid = new Set<string>();
    receiver.respondWith((req) => {
      if (req.path.endsWith('/token')) {
        const expected = `Basic ${Buffer.from('hook-client:hook-secret').toString('base64')}`;
        if (req.headers['authorization'] !== expected || !req.body.includes('grant_type=client_credentials'))
          return { status: 401 };
        const token = `tok-${++issued}`;
        valid.clear();
        valid.add(token);
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 3600 }),
        };
      }
      if (req.path.endsWith('/protected')) {
        const token = String(req.headers['authorization'] ?? '').replace(/^Bearer /, '');
        return { status: valid.has(token) ? 200 : 401 };
      }
      return { status: 200 };
    });
    const oauth = {
      token_url: `${receiver.url}/token`,
      client_id: 'hook-client',
      sealed_client_secret: sealer.seal('hook-secret'),
      scope: null,
    };
    const target = uniqueName('oauth');
    const first = await request(target, `${receiver.url}/protected`, uniqueName('event'), oauth);
    await waitFor(async () => (await store.get(first.deliveryId))?.status === 'delivered', {
      what: 'first oauth delivery',
    });
    const second = await request(target, `${receiver.url}/protected`, uniqueName('event'), oauth);
    await waitFor(async () => (await store.get(second.deliveryId))?.status === 'delivered', {
      what: 'cached token reused',
    });
    expect(issued).toBe(1);
    valid.clear(); // the receiver revokes the token
    const third = await request(target, `${receiver.url}/protected`, uniqueName('event'), oauth);
    await waitFor(async () => (await store.get(third.deliveryId))?.status === 'delivered', {
      what: 'delivery after re-authentication',
    });
    expect(issued).toBe(2);
    expect((await store.attemptsFor(third.deliveryId)).map((a) => a.status)).toEqual([200]);
  });

  it('disables a target that keeps failing for longer than the configured window', async () => {
    receiver.respondWith((req) => ({ status: req.path.includes('failing') ? 500 : 200 }));
    const target = uniqueName('failing');
    const { deliveryId } = await request(target, `${allowedUrl()}/failing`);
    const event = await waitFor(() => outcomes.find((o) => o.type === 'disabled' && o.value['target_id'] === target), {
      what: 'TargetDisabled after the failing window',
    });
    expect(event.value['reason']).toMatch(/^failing for more than \d+ s$/);
    // The attempts followed the (compressed ×0.0005) schedule: 0, 5 s, 5 min, 30 min, 2 h … ±20 % jitter.
    const times = (await store.attemptsFor(deliveryId)).map((a) => a.started_at.getTime());
    expect(times.length).toBeGreaterThanOrEqual(4);
    const gap = (i: number) => times[i]! - times[i - 1]!;
    expect(gap(2)).toBeGreaterThanOrEqual(120 * 0.99);
    expect(gap(2)).toBeLessThan(1000);
    expect(gap(3)).toBeGreaterThanOrEqual(720 * 0.99);
    expect(gap(3)).toBeLessThan(2500);
  });

  it('does not let a slow target delay a fast one', async () => {
    receiver.respondWith((req) => ({ status: 200, delayMs: req.path.includes('slow') ? 900 : 0 }));
    const slowTarget = uniqueName('slow');
    for (let i = 0; i < 4; i++) await request(slowTarget, `${allowedUrl()}/slow`);
    const fast = await request(uniqueName('fast'), `${allowedUrl()}/fast`);
    const started = Date.now();
    await waitFor(async () => (await store.get(fast.deliveryId))?.status === 'delivered', { what: 'fast delivered' });
    // One slow request in flight per target (perTargetConcurrency 1) takes 0.9 s; four in a row would take 3.6 s.
    expect(Date.now() - started).toBeLessThan(2500);
  });
});
