import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@platform/testing';
import { verifyStandardSignature, verifyWorkosSignature } from '@platform/webhooks';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

let stack: UsermgmtStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startUsermgmtStack();
  receiver = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

async function tenant() {
  const { key } = await stack.newKey();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const r = await stack.app.inject({
      method,
      url,
      headers: payload === undefined ? { authorization: headers.authorization } : headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: r.statusCode, body: r.body ? (JSON.parse(r.body) as Record<string, unknown>) : undefined };
  };
  return { call };
}

const standardOk = (r: WebhookReceiver['requests'][number], secrets: string[]) =>
  verifyStandardSignature(
    {
      id: r.headers['webhook-id'] as string,
      timestamp: r.headers['webhook-timestamp'] as string,
      signature: r.headers['webhook-signature'] as string,
    },
    r.body,
    secrets,
  );

describe('delivery log and manual redelivery', () => {
  it('lists every attempt with status, latency and the start of the response, and redelivers on request', async () => {
    const { call } = await tenant();
    let calls = 0;
    receiver.respondWith((req) =>
      req.path.endsWith('/log') ? { status: ++calls === 1 ? 503 : 200 } : { status: 200 },
    );
    const endpoint = await call('POST', '/webhook_endpoints', {
      endpoint_url: `${receiver.url}/log`,
      events: ['user.created'],
    });
    const id = endpoint.body?.['id'] as string;
    await call('POST', '/user_management/users', { email: 'log@example.com' });
    const log = await waitFor(
      async () => {
        const r = await call('GET', `/webhook_endpoints/${id}/deliveries`);
        return (r.body?.['data'] as unknown[]).length === 2 ? r : undefined;
      },
      { what: 'two attempts in the log' },
    );
    const [latest, first] = log.body?.['data'] as Array<Record<string, unknown>>;
    expect(first).toMatchObject({
      object: 'webhook_delivery_attempt',
      attempt: 1,
      status_code: 503,
      event: 'user.created',
      response_body: 'status 503',
    });
    expect(latest).toMatchObject({ attempt: 2, status_code: 200, response_body: 'ok', error: null });
    expect(latest?.['event_id']).toBe(first?.['event_id']);
    expect(typeof latest?.['latency_ms']).toBe('number');
    expect(log.body?.['list_metadata']).toEqual({ before: null, after: null });

    const redeliver = await call(
      'POST',
      `/webhook_endpoints/${id}/deliveries/${latest?.['delivery_id'] as string}/redeliver`,
    );
    expect(redeliver).toMatchObject({ status: 202, body: { object: 'webhook_redelivery', webhook_endpoint_id: id } });
    await waitFor(() => receiver.requests.filter((r) => r.path.endsWith('/log')).length === 3, {
      what: 'redelivered copy',
    });
    const copies = receiver.requests.filter((r) => r.path.endsWith('/log'));
    expect(new Set(copies.map((c) => c.headers['webhook-id']))).toEqual(new Set([latest?.['event_id']]));
    expect((await call('POST', `/webhook_endpoints/${id}/deliveries/whd_nope/redeliver`)).status).toBe(404);
    expect((await call('GET', '/webhook_endpoints/we_NOPE/deliveries')).status).toBe(404);
  });

  it('redelivers every failed message since a time', async () => {
    const { call } = await tenant();
    receiver.respondWith((req) => ({ status: req.path.endsWith('/down') ? 410 : 200 }));
    const endpoint = await call('POST', '/webhook_endpoints', {
      endpoint_url: `${receiver.url}/down`,
      events: ['user.created'],
    });
    const id = endpoint.body?.['id'] as string;
    const since = new Date(Date.now() - 1000).toISOString();
    await call('POST', '/user_management/users', { email: 'down1@example.com' });
    await waitFor(
      async () => {
        const list = await call('GET', '/webhook_endpoints?limit=100');
        return (
          (list.body?.['data'] as Array<{ id: string; status: string }>).find((e) => e.id === id)?.status === 'disabled'
        );
      },
      { what: 'disabled by 410' },
    );
    receiver.respondWith(() => ({ status: 200 }));
    expect((await call('POST', `/webhook_endpoints/${id}/redeliver`, { since })).status).toBe(202);
    await waitFor(() => receiver.requests.filter((r) => r.path.endsWith('/down')).length === 2, {
      what: 'failed message redelivered',
    });
    expect((await call('POST', `/webhook_endpoints/${id}/redeliver`, { since: 'yesterday' })).status).toBe(422);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets during the window, and with the new one alone after revoking the old', async () => {
    const { call } = await tenant();
    receiver.respondWith(() => ({ status: 200 }));
    const endpoint = await call('POST', '/webhook_endpoints', {
      endpoint_url: `${receiver.url}/rotate`,
      events: ['user.created'],
    });
    const id = endpoint.body?.['id'] as string;
    const oldSecret = endpoint.body?.['secret'] as string;
    const rotated = await call('POST', `/webhook_endpoints/${id}/rotate_secret`, { previous_valid_for_seconds: 3600 });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body?.['secret'] as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);

    await call('POST', '/user_management/users', { email: 'rotate1@example.com' });
    const during = await waitFor(() => receiver.requests.find((r) => r.body.includes('rotate1@')), {
      what: 'delivery during rotation',
    });
    expect((during.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(standardOk(during, [oldSecret])).toBe(true);
    expect(standardOk(during, [newSecret])).toBe(true);
    expect(verifyWorkosSignature(during.headers['workos-signature'] as string, during.body, newSecret)).toBe(true);

    const revoked = await call('POST', `/webhook_endpoints/${id}/rotate_secret`, { previous_valid_for_seconds: 0 });
    const latest = revoked.body?.['secret'] as string;
    await call('POST', '/user_management/users', { email: 'rotate2@example.com' });
    const after = await waitFor(() => receiver.requests.find((r) => r.body.includes('rotate2@')), {
      what: 'delivery after revocation',
    });
    expect((after.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(standardOk(after, [latest])).toBe(true);
    expect(standardOk(after, [newSecret, oldSecret])).toBe(false);
  });
});
