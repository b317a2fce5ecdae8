import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestDelivery } from '@platform/contracts';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@platform/testing';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

// A webhook endpoint's rate_limit and ordered (extensions beyond WorkOS's API, issue 42): the object carries
// them on every read, and the worker's fan-out puts them on each delivery request (target.rate_limit and
// ordering_key) for the dispatcher to honour.

let stack: UsermgmtStack;
let receiver: WebhookReceiver;
let watch: Awaited<ReturnType<UsermgmtStack['watchDeliveryRequests']>>;

type Json = Record<string, unknown>;

async function call(key: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) {
  const response = await stack.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: response.statusCode, body: JSON.parse(response.body || 'null') as Json };
}

const endpoints = async (key: string) =>
  (await call(key, 'GET', '/webhook_endpoints?limit=100')).body['data'] as Json[];

beforeAll(async () => {
  stack = await startUsermgmtStack();
  receiver = await startWebhookReceiver();
  watch = await stack.watchDeliveryRequests();
}, 120_000);

afterAll(async () => {
  await watch?.stop();
  await receiver?.close();
  await stack?.close();
});

describe('rate_limit and ordered on webhook endpoints', () => {
  it('are taken on create, returned by create, update and list, changed by update, and kept when not sent', async () => {
    const { key } = await stack.newKey();
    const plain = await call(key, 'POST', '/webhook_endpoints', {
      endpoint_url: 'https://hooks.example.com/plain',
      events: ['user.created'],
    });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ rate_limit: null, ordered: false });

    const tuned = await call(key, 'POST', '/webhook_endpoints', {
      endpoint_url: 'https://hooks.example.com/tuned',
      events: ['user.created'],
      rate_limit: 25,
      ordered: true,
    });
    expect(tuned.status).toBe(201);
    expect(tuned.body).toMatchObject({ object: 'webhook_endpoint', rate_limit: 25, ordered: true, status: 'enabled' });
    const id = tuned.body['id'] as string;
    expect((await endpoints(key)).find((e) => e['id'] === id)).toEqual(tuned.body);

    // Another member alone leaves both as they are.
    const disabled = await call(key, 'PATCH', `/webhook_endpoints/${id}`, { status: 'disabled' });
    expect(disabled).toMatchObject({ status: 200, body: { status: 'disabled', rate_limit: 25, ordered: true } });

    const raised = await call(key, 'PATCH', `/webhook_endpoints/${id}`, { rate_limit: 10_000 });
    expect(raised).toMatchObject({ status: 200, body: { rate_limit: 10_000, ordered: true } });

    // null removes the limit; ordered is untouched.
    const unlimited = await call(key, 'PATCH', `/webhook_endpoints/${id}`, { rate_limit: null });
    expect(unlimited).toMatchObject({ status: 200, body: { rate_limit: null, ordered: true } });

    const unordered = await call(key, 'PATCH', `/webhook_endpoints/${id}`, { ordered: false, rate_limit: 1 });
    expect(unordered).toMatchObject({ status: 200, body: { rate_limit: 1, ordered: false } });

    const listed = await endpoints(key);
    expect(listed.find((e) => e['id'] === id)).toEqual(unordered.body);
    expect(listed.find((e) => e['id'] === plain.body['id'])).toEqual(plain.body);

    // Rotating the secret returns the same object, the settings included.
    const rotated = await call(key, 'POST', `/webhook_endpoints/${id}/rotate_secret`, {});
    expect(rotated).toMatchObject({ status: 200, body: { rate_limit: 1, ordered: false } });
  });

  it('refuses a rate limit out of range or not an integer, and ordered not a boolean, with 422; nothing changes', async () => {
    const { key } = await stack.newKey();
    const existing = await call(key, 'POST', '/webhook_endpoints', {
      endpoint_url: 'https://hooks.example.com/kept',
      events: ['user.created'],
      rate_limit: 10,
    });
    const id = existing.body['id'] as string;
    const before = await endpoints(key);
    const rateLimitIssue = {
      field: 'rate_limit',
      code: 'invalid_anyOf',
      message: 'rate_limit must be an integer from 1 to 10000, or null',
    };
    for (const rate_limit of [0, 10_001, '5', 2.5, -1]) {
      const created = await call(key, 'POST', '/webhook_endpoints', {
        endpoint_url: 'https://hooks.example.com/new',
        events: ['user.created'],
        rate_limit,
      });
      expect(created, JSON.stringify(rate_limit)).toMatchObject({
        status: 422,
        body: { code: 'validation_failed', errors: [rateLimitIssue] },
      });
      expect(typeof created.body['message']).toBe('string');
      const updated = await call(key, 'PATCH', `/webhook_endpoints/${id}`, { rate_limit });
      expect(updated, JSON.stringify(rate_limit)).toMatchObject({
        status: 422,
        body: { code: 'validation_failed', errors: [rateLimitIssue] },
      });
    }
    const ordered = await call(key, 'PATCH', `/webhook_endpoints/${id}`, { ordered: 'yes' });
    expect(ordered).toMatchObject({
      status: 422,
      body: { errors: [{ field: 'ordered', code: 'invalid_type', message: 'ordered must be a boolean' }] },
    });
    expect(await endpoints(key)).toEqual(before);
  });

  it('are described in the OpenAPI document as extensions beyond WorkOS', async () => {
    const r = await stack.app.inject({ method: 'GET', url: '/openapi.json' });
    const doc = JSON.parse(r.body) as {
      components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Json }> } }>>;
    };
    const endpoint = doc.components.schemas['WebhookEndpoint']!.properties;
    expect(endpoint['rate_limit']?.description).toMatch(/beyond WorkOS/);
    expect(endpoint['ordered']?.description).toMatch(/beyond WorkOS/);
    for (const [path, method] of [
      ['/webhook_endpoints', 'post'],
      ['/webhook_endpoints/{id}', 'patch'],
    ] as const) {
      const body = doc.paths[path]![method]!.requestBody!.content['application/json']!.schema as {
        properties: Record<string, unknown>;
      };
      expect(Object.keys(body.properties), `${method} ${path}`).toEqual(
        expect.arrayContaining(['rate_limit', 'ordered']),
      );
    }
  });
});

describe('delivery requests for the endpoint settings', () => {
  const requestsFor = (endpointId: string, eventType: string) =>
    watch.requests.filter((r) => r.target.id === endpointId && r.event_type === eventType);

  async function requestFor(endpointId: string, eventType: string, userId: string): Promise<RequestDelivery> {
    return waitFor(() => requestsFor(endpointId, eventType).find((r) => r.payload.includes(userId)), {
      what: `${eventType} delivery request for ${endpointId}`,
    });
  }

  it("carry an ordered endpoint's limit and the user as ordering key, and null for a plain endpoint", async () => {
    const { key } = await stack.newKey();
    const events = ['user.created', 'user.updated'];
    const ordered = await call(key, 'POST', '/webhook_endpoints', {
      endpoint_url: `${receiver.url}/ordered`,
      events,
      rate_limit: 5,
      ordered: true,
    });
    const limitedOnly = await call(key, 'POST', '/webhook_endpoints', {
      endpoint_url: `${receiver.url}/limited`,
      events,
      rate_limit: 7,
    });
    const plain = await call(key, 'POST', '/webhook_endpoints', { endpoint_url: `${receiver.url}/plain`, events });
    const [orderedId, limitedId, plainId] = [ordered, limitedOnly, plain].map((r) => r.body['id'] as string);

    const user = await call(key, 'POST', '/user_management/users', { email: 'ordered@example.com' });
    expect(user.status).toBe(201);
    const userId = user.body['id'] as string;
    await call(key, 'PUT', `/user_management/users/${userId}`, { first_name: 'Ordered' });

    for (const type of events) {
      const toOrdered = await requestFor(orderedId!, type, userId);
      expect(toOrdered.target.rate_limit, type).toBe(5);
      expect(toOrdered.ordering_key, type).toBe(userId);
      const toLimited = await requestFor(limitedId!, type, userId);
      expect(toLimited.target.rate_limit, type).toBe(7);
      expect(toLimited.ordering_key, type).toBeNull();
      const toPlain = await requestFor(plainId!, type, userId);
      expect(toPlain.target.rate_limit, type).toBeNull();
      expect(toPlain.ordering_key, type).toBeNull();
    }
  });

  it('follow an update of the endpoint: the next event goes out without the removed limit and order', async () => {
    const { key } = await stack.newKey();
    const endpoint = await call(key, 'POST', '/webhook_endpoints', {
      endpoint_url: `${receiver.url}/changed`,
      events: ['user.created', 'user.deleted'],
      rate_limit: 3,
      ordered: true,
    });
    const id = endpoint.body['id'] as string;
    const user = await call(key, 'POST', '/user_management/users', { email: 'changed@example.com' });
    const userId = user.body['id'] as string;
    const created = await requestFor(id, 'user.created', userId);
    expect(created).toMatchObject({ target: { rate_limit: 3 }, ordering_key: userId });

    const patched = await call(key, 'PATCH', `/webhook_endpoints/${id}`, { rate_limit: null, ordered: false });
    expect(patched.body).toMatchObject({ rate_limit: null, ordered: false });
    const deleted = await stack.app.inject({
      method: 'DELETE',
      url: `/user_management/users/${userId}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(deleted.statusCode).toBe(204);
    const after = await requestFor(id, 'user.deleted', userId);
    expect(after).toMatchObject({ target: { rate_limit: null }, ordering_key: null });
  });
});
