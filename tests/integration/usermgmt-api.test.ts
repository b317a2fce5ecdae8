import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@platform/testing';
import { verifyStandardSignature, verifyWorkosSignature } from '@platform/webhooks';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

let stack: UsermgmtStack;
let key: string;
let receiver: WebhookReceiver;

const auth = (k = key) => ({ authorization: `Bearer ${k}` });
const json = { 'content-type': 'application/json' };

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await stack.app.inject({
    method,
    url,
    headers: { ...auth(), ...(body === undefined ? {} : json), ...headers },
    ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return {
    status: response.statusCode,
    body: response.body ? (JSON.parse(response.body) as Record<string, unknown>) : undefined,
    headers: response.headers,
  };
}

const user = (email: string, more: Record<string, unknown> = {}, k = key) =>
  call('POST', '/user_management/users', { email, ...more }, auth(k));

beforeAll(async () => {
  stack = await startUsermgmtStack();
  ({ key } = await stack.newKey());
  receiver = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

describe('authentication', () => {
  it('refuses a missing, malformed or unknown key with 401 and the API error shape', async () => {
    for (const headers of [{}, { authorization: 'Basic abc' }, { authorization: 'Bearer sk_test_nope' }]) {
      const response = await stack.app.inject({ method: 'GET', url: '/webhook_endpoints', headers });
      expect(response.statusCode).toBe(401);
      expect(JSON.parse(response.body)).toEqual({
        code: 'unauthorized',
        message: 'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.',
      });
    }
  });

  it('stops accepting a revoked key', async () => {
    const env = await stack.accounts.createEnvironment('usermgmt', 'revoke');
    const created = await stack.accounts.createKey(env._id);
    expect((await call('GET', '/webhook_endpoints', undefined, auth(created.key))).status).toBe(200);
    await stack.accounts.revokeKey(created.record._id);
    expect((await call('GET', '/webhook_endpoints', undefined, auth(created.key))).status).toBe(401);
  });
});

describe('CORS origins', () => {
  it('creates an origin, normalised, with the object shape of the real API', async () => {
    const { status, body } = await call('POST', '/user_management/cors_origins', { origin: 'https://App.Example.com' });
    expect(status).toBe(201);
    expect(body).toMatchObject({ object: 'cors_origin', origin: 'https://app.example.com' });
    expect(body?.['id']).toMatch(/^cors_origin_[0-9A-Z]{26}$/);
    expect(new Date(body?.['created_at'] as string).toISOString()).toBe(body?.['created_at']);
  });

  it('rejects a duplicate with 409', async () => {
    await call('POST', '/user_management/cors_origins', { origin: 'https://dup.example.com' });
    const { status, body } = await call('POST', '/user_management/cors_origins', {
      origin: 'https://dup.example.com/',
    });
    expect(status).toBe(409);
    expect(body).toMatchObject({ code: 'duplicate_cors_origin' });
  });

  it('rejects invalid fields with 422 naming the field, and malformed JSON with 400', async () => {
    const bad = await call('POST', '/user_management/cors_origins', { origin: 'https://x.com/path' });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      code: 'invalid_request_parameters',
      message: 'origin must not have a path, query or fragment',
      errors: [{ field: 'origin', code: 'invalid_origin', message: 'origin must not have a path, query or fragment' }],
    });
    const wrongType = await call('POST', '/user_management/cors_origins', { origin: 42 });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body?.['errors']).toEqual([
      { field: 'origin', code: 'invalid_type', message: 'origin must be a string' },
    ]);
    const missing = await call('POST', '/user_management/cors_origins', {});
    expect(missing.status).toBe(422);
    expect(missing.body?.['errors']).toEqual([
      { field: 'origin', code: 'origin_required', message: 'origin is required' },
    ]);
    const malformed = await call('POST', '/user_management/cors_origins', '{"origin": ');
    expect(malformed).toMatchObject({
      status: 400,
      body: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
    });
  });
});

describe('JWT template', () => {
  it('accepts a template that is JSON once placeholders are filled', async () => {
    const content = '{"email": {{user.email}}, "name": "{{user.first_name}} {{user.last_name}}"}';
    const { status, body } = await call('PUT', '/user_management/jwt_template', { content });
    expect(status).toBe(200);
    expect(body).toMatchObject({ object: 'jwt_template', content });
  });

  it('refuses unknown placeholders and invalid JSON, leaving the stored template unchanged', async () => {
    const before = await stack.store.jwtTemplates.get((await stack.accounts.verifyKey('usermgmt', key))!.environmentId);
    const unknown = await call('PUT', '/user_management/jwt_template', { content: '{"a": {{user.password}}}' });
    expect(unknown.status).toBe(422);
    expect(unknown.body?.['message']).toBe('content uses an unknown placeholder {{user.password}} at line 1, column 9');
    const invalid = await call('PUT', '/user_management/jwt_template', { content: '{"a": {{user.id}}' });
    expect(invalid.status).toBe(422);
    const after = await stack.store.jwtTemplates.get(before!._id);
    expect(after?.content).toBe(before?.content);
  });
});

describe('JWT template: fallbacks and preview', () => {
  it("takes WorkOS's || fallbacks and string literals, and previews the claims for a user without saving", async () => {
    const content = `{"name": "{{ user.first_name || 'Guest' }}", "id": {{ user.external_id || user.id }}, "plan": {{ user.metadata.plan || "free" }}}`;
    const saved = await call('PUT', '/user_management/jwt_template', { content });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const user = await call('POST', '/user_management/users', { email: `preview-${Date.now()}@example.com` });
    const userId = user.body!['id'] as string;
    const preview = await call('POST', '/user_management/jwt_template/preview', { user_id: userId });
    expect(preview).toMatchObject({
      status: 200,
      body: { object: 'jwt_template_preview', claims: { name: 'Guest', id: userId, plan: 'free' } },
    });
    // A draft is rendered as given, and not stored.
    const draft = await call('POST', '/user_management/jwt_template/preview', {
      user_id: userId,
      content: '{"mail": {{ user.email }}}',
    });
    expect(draft.body).toMatchObject({ claims: { mail: user.body!['email'] } });
    const stored = await stack.store.jwtTemplates.get((await stack.accounts.verifyKey('usermgmt', key))!.environmentId);
    expect(stored?.content).toBe(content);
    const broken = await call('POST', '/user_management/jwt_template/preview', {
      user_id: userId,
      content: '{\n  "a": {{ user.id user.email }}\n}',
    });
    expect(broken).toMatchObject({ status: 422, body: { message: expect.stringContaining('line 2, column 19') } });
    expect((await call('POST', '/user_management/jwt_template/preview', { user_id: 'user_none' })).status).toBe(404);
  });
});

describe('redirect URIs', () => {
  it('creates one, refuses plain http to a public host and duplicates', async () => {
    const created = await call('POST', '/user_management/redirect_uris', { uri: 'https://app.example.com/callback' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'redirect_uri',
      uri: 'https://app.example.com/callback',
      default: true,
    });
    expect(created.body?.['id']).toMatch(/^redirect_uri_/);
    expect((await call('POST', '/user_management/redirect_uris', { uri: 'http://app.example.com/cb' })).status).toBe(
      422,
    );
    expect(
      (await call('POST', '/user_management/redirect_uris', { uri: 'https://app.example.com/callback' })).status,
    ).toBe(409);
  });
});

describe('webhook endpoints', () => {
  let own: { key: string };
  beforeAll(async () => {
    own = await stack.newKey();
  });
  const as = (k: string) => ({ authorization: `Bearer ${k}` });

  it('creates an endpoint with its signing secret, which every read returns as WorkOS does', async () => {
    const created = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: 'https://hooks.example.com/a', events: ['user.created'] },
      as(own.key),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      endpoint_url: 'https://hooks.example.com/a',
      events: ['user.created'],
      status: 'enabled',
    });
    expect(created.body?.['id']).toMatch(/^we_[0-9A-Z]{26}$/);
    expect(created.body?.['secret']).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    const list = await call('GET', '/webhook_endpoints', undefined, as(own.key));
    expect(list.status).toBe(200);
    const listed = (list.body?.['data'] as Array<Record<string, unknown>>).find(
      (e) => e['id'] === created.body?.['id'],
    );
    expect(listed).toEqual(created.body);
  });

  it('paginates with limit, after, before and order', async () => {
    const mine = await stack.newKey();
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5]) {
      const r = await call(
        'POST',
        '/webhook_endpoints',
        { endpoint_url: `https://hooks.example.com/p${n}`, events: ['user.created'] },
        as(mine.key),
      );
      ids.push(r.body?.['id'] as string);
    }
    const page1 = await call('GET', '/webhook_endpoints?limit=2', undefined, as(mine.key));
    expect((page1.body?.['data'] as Array<{ id: string }>).map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(page1.body?.['list_metadata']).toEqual({ before: null, after: ids[3] });
    const page2 = await call('GET', `/webhook_endpoints?limit=2&after=${ids[3]}`, undefined, as(mine.key));
    expect((page2.body?.['data'] as Array<{ id: string }>).map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page2.body?.['list_metadata']).toEqual({ before: ids[2], after: ids[1] });
    const page3 = await call('GET', `/webhook_endpoints?limit=2&after=${ids[1]}`, undefined, as(mine.key));
    expect((page3.body?.['data'] as Array<{ id: string }>).map((e) => e.id)).toEqual([ids[0]]);
    expect(page3.body?.['list_metadata']).toEqual({ before: ids[0], after: null });
    const back = await call('GET', `/webhook_endpoints?limit=2&before=${ids[1]}`, undefined, as(mine.key));
    expect((back.body?.['data'] as Array<{ id: string }>).map((e) => e.id)).toEqual([ids[3], ids[2]]);
    const asc = await call('GET', '/webhook_endpoints?limit=3&order=asc', undefined, as(mine.key));
    expect((asc.body?.['data'] as Array<{ id: string }>).map((e) => e.id)).toEqual([ids[0], ids[1], ids[2]]);
    const bad = await call('GET', '/webhook_endpoints?limit=1000', undefined, as(mine.key));
    expect(bad.status).toBe(422);
    expect(bad.body?.['errors']).toEqual([
      { field: 'limit', code: 'invalid_maximum', message: 'limit must be at most 100' },
    ]);
  });

  it('updates, disables, deletes, and answers 404 for unknown or deleted ids', async () => {
    const created = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: 'https://hooks.example.com/u', events: ['user.created'] },
      as(own.key),
    );
    const id = created.body?.['id'] as string;
    const patched = await call(
      'PATCH',
      `/webhook_endpoints/${id}`,
      { status: 'disabled', events: ['user.created', 'dsync.user.created'] },
      as(own.key),
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, status: 'disabled', events: ['user.created', 'dsync.user.created'] });
    expect(patched.body?.['secret']).toBe(created.body?.['secret']);
    const unknown = await call('PATCH', '/webhook_endpoints/we_UNKNOWN', { status: 'enabled' }, as(own.key));
    expect(unknown).toMatchObject({ status: 404, body: { code: 'entity_not_found' } });
    // The official SDK sends Content-Type: application/json with an empty body on DELETE.
    const deleted = await stack.app.inject({
      method: 'DELETE',
      url: `/webhook_endpoints/${id}`,
      headers: { ...as(own.key), ...json },
    });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await call('DELETE', `/webhook_endpoints/${id}`, undefined, as(own.key))).status).toBe(404);
    const list = await call('GET', '/webhook_endpoints?limit=100', undefined, as(own.key));
    expect((list.body?.['data'] as Array<{ id: string }>).some((e) => e.id === id)).toBe(false);
  });

  it('refuses bad fields with 422 and changes nothing', async () => {
    const before = await call('GET', '/webhook_endpoints?limit=100', undefined, as(own.key));
    const cases: Array<[unknown, string]> = [
      [{ endpoint_url: 'ftp://x.example.com', events: ['user.created'] }, 'endpoint_url'],
      [{ endpoint_url: 'https://x.example.com', events: ['no.such.event'] }, 'events'],
      [{ endpoint_url: 'https://x.example.com', events: [] }, 'events'],
      [{ endpoint_url: 'https://x.example.com' }, 'events'],
      [{ endpoint_url: 'https://x.example.com', events: ['user.created'], extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const r = await call('POST', '/webhook_endpoints', body, as(own.key));
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect((r.body?.['errors'] as Array<{ field: string }>)[0]?.field).toBe(field);
    }
    const badStatus = await call('PATCH', '/webhook_endpoints/we_X', { status: 'paused' }, as(own.key));
    expect(badStatus.status).toBe(422);
    const after = await call('GET', '/webhook_endpoints?limit=100', undefined, as(own.key));
    expect(after.body).toEqual(before.body);
  });

  it('refuses an oversized body with 413 and a duplicate URL with 409', async () => {
    const huge = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: 'https://x.example.com', events: ['user.created'], pad: 'x'.repeat(70_000) },
      as(own.key),
    );
    expect(huge).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: 'https://dup.example.com/h', events: ['user.created'] },
      as(own.key),
    );
    const dup = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: 'https://dup.example.com/h', events: ['user.created'] },
      as(own.key),
    );
    expect(dup).toMatchObject({ status: 409, body: { code: 'duplicate_endpoint_url' } });

    // A PATCH onto another endpoint's URL is the same conflict, answered at once (not retried into a dead letter).
    const other = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: 'https://elsewhere.example.com/h', events: ['user.created'] },
      as(own.key),
    );
    for (const url of ['https://dup.example.com/h', 'https://DUP.Example.com/h']) {
      const started = Date.now();
      const patched = await call(
        'PATCH',
        `/webhook_endpoints/${other.body!['id'] as string}`,
        { endpoint_url: url },
        as(own.key),
      );
      expect(patched, url).toMatchObject({ status: 409, body: { code: 'duplicate_endpoint_url' } });
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    const listed = await call('GET', '/webhook_endpoints?limit=100', undefined, as(own.key));
    expect(
      (listed.body!['data'] as Array<{ id: string; endpoint_url: string }>).find((e) => e.id === other.body!['id']),
    ).toMatchObject({
      endpoint_url: 'https://elsewhere.example.com/h',
    });
  });

  it("never shows or changes another environment's endpoints", async () => {
    const other = await stack.newKey();
    const created = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: 'https://tenant.example.com', events: ['user.created'] },
      as(other.key),
    );
    const id = created.body?.['id'] as string;
    expect((await call('PATCH', `/webhook_endpoints/${id}`, { status: 'disabled' }, as(own.key))).status).toBe(404);
    expect((await call('DELETE', `/webhook_endpoints/${id}`, undefined, as(own.key))).status).toBe(404);
    const list = await call('GET', '/webhook_endpoints?limit=100', undefined, as(own.key));
    expect((list.body?.['data'] as Array<{ id: string }>).some((e) => e.id === id)).toBe(false);
  });
});

describe('users and the user.created webhook', () => {
  it('delivers user.created, signed, to every subscribed endpoint', async () => {
    const tenant = await stack.newKey();
    const endpoint = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: receiver.url, events: ['user.created'] },
      auth(tenant.key),
    );
    expect(endpoint.status).toBe(201);
    const secret = endpoint.body?.['secret'] as string;
    await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: `${receiver.url}/dsync`, events: ['dsync.user.created'] },
      auth(tenant.key),
    );

    const user = await call(
      'POST',
      '/user_management/users',
      { email: 'Ada@Example.com', first_name: 'Ada', email_verified: true },
      auth(tenant.key),
    );
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({
      object: 'user',
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: null,
      email_verified: true,
    });
    const userId = user.body?.['id'] as string;

    const request = await waitFor(() => receiver.requests.find((r) => r.body.includes(userId)), {
      what: 'user.created webhook',
    });
    expect(request.path).toBe('/webhooks');
    const payload = JSON.parse(request.body) as Record<string, unknown>;
    expect(payload).toMatchObject({ event: 'user.created', data: user.body });
    expect(payload['id']).toMatch(/^event_[0-9A-F]{26}$/);
    expect(verifyWorkosSignature(request.headers['workos-signature'] as string, request.body, secret)).toBe(true);
    expect(
      verifyStandardSignature(
        {
          id: request.headers['webhook-id'] as string,
          timestamp: request.headers['webhook-timestamp'] as string,
          signature: request.headers['webhook-signature'] as string,
        },
        request.body,
        [secret],
      ),
    ).toBe(true);
    expect(request.headers['webhook-id']).toBe(payload['id']);
    // Only the subscribed endpoint got it.
    expect(receiver.requests.filter((r) => r.path === '/webhooks/dsync')).toHaveLength(0);

    const fetched = await call('GET', `/user_management/users/${userId}`, undefined, auth(tenant.key));
    expect(fetched).toMatchObject({ status: 200, body: user.body });
    expect((await call('GET', `/user_management/users/${userId}`)).status).toBe(404);

    const duplicate = await call('POST', '/user_management/users', { email: 'ada@example.com' }, auth(tenant.key));
    expect(duplicate).toMatchObject({ status: 409, body: { code: 'email_not_available' } });
  });

  it('disables an endpoint whose receiver answers 410 Gone', async () => {
    const tenant = await stack.newKey();
    const gone = await startWebhookReceiver('/gone');
    gone.respondWith(() => ({ status: 410 }));
    try {
      const endpoint = await call(
        'POST',
        '/webhook_endpoints',
        { endpoint_url: gone.url, events: ['user.created'] },
        auth(tenant.key),
      );
      await call('POST', '/user_management/users', { email: 'gone@example.com' }, auth(tenant.key));
      await waitFor(
        async () => {
          const list = await call('GET', '/webhook_endpoints', undefined, auth(tenant.key));
          const found = (list.body?.['data'] as Array<{ id: string; status: string }>).find(
            (e) => e.id === endpoint.body?.['id'],
          );
          return found?.status === 'disabled';
        },
        { what: 'endpoint disabled after 410' },
      );
      expect(gone.requests).toHaveLength(1);
    } finally {
      await gone.close();
    }
  });

  it('replays a request with the same Idempotency-Key and refuses the key with another body', async () => {
    const headers = { 'idempotency-key': 'create-grace-1' };
    const first = await call('POST', '/user_management/users', { email: 'grace@example.com' }, headers);
    const second = await call('POST', '/user_management/users', { email: 'grace@example.com' }, headers);
    expect(first.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const other = await call('POST', '/user_management/users', { email: 'hopper@example.com' }, headers);
    expect(other).toMatchObject({ status: 409, body: { code: 'idempotency_key_reused' } });
  });

  it('validates the email', async () => {
    const r = await call('POST', '/user_management/users', { email: 'not-an-email' });
    expect(r.status).toBe(422);
    expect((r.body?.['errors'] as Array<{ field: string }>)[0]?.field).toBe('email');
  });
});

describe('users: update, delete, external ids and their webhooks', () => {
  it('updates the members given, merges metadata (null removes a key) and delivers user.updated', async () => {
    const tenant = await stack.newKey();
    await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: `${receiver.url}/updated`, events: ['user.updated'] },
      auth(tenant.key),
    );
    const created = await user(
      'lin@example.com',
      { first_name: 'Lin', metadata: { plan: 'free', team: 'a' } },
      tenant.key,
    );
    const id = created.body?.['id'] as string;
    const updated = await call(
      'PUT',
      `/user_management/users/${id}`,
      { last_name: 'Wu', email: 'Lin.Wu@Example.com', metadata: { plan: 'pro', team: null } },
      auth(tenant.key),
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      email: 'lin.wu@example.com',
      first_name: 'Lin',
      last_name: 'Wu',
      metadata: { plan: 'pro' },
      created_at: created.body?.['created_at'],
    });
    expect(updated.body?.['updated_at']).not.toBe(created.body?.['updated_at']);
    expect(await call('GET', `/user_management/users/${id}`, undefined, auth(tenant.key))).toMatchObject({
      status: 200,
      body: updated.body,
    });
    const delivered = await waitFor(
      () => receiver.requests.find((r) => r.path === '/webhooks/updated' && r.body.includes(id)),
      { what: 'user.updated webhook' },
    );
    expect(JSON.parse(delivered.body)).toMatchObject({ event: 'user.updated', data: updated.body });
  });

  it('refuses an e-mail or external id another user holds with 409, and changes nothing', async () => {
    const tenant = await stack.newKey();
    await user('one@example.com', { external_id: 'crm-1' }, tenant.key);
    const two = await user('two@example.com', { external_id: 'crm-2' }, tenant.key);
    const id = two.body?.['id'] as string;
    expect(await user('three@example.com', { external_id: 'crm-1' }, tenant.key)).toMatchObject({
      status: 409,
      body: { code: 'external_id_not_available' },
    });
    expect(await call('PUT', `/user_management/users/${id}`, { external_id: 'crm-1' }, auth(tenant.key))).toMatchObject(
      { status: 409, body: { code: 'external_id_not_available' } },
    );
    expect(
      await call('PUT', `/user_management/users/${id}`, { email: 'one@example.com' }, auth(tenant.key)),
    ).toMatchObject({ status: 409, body: { code: 'email_not_available' } });
    expect((await call('GET', `/user_management/users/${id}`, undefined, auth(tenant.key))).body).toEqual(two.body);
    // Another environment may use the same external id.
    expect((await user('one@example.com', { external_id: 'crm-1' })).status).toBe(201);
    const tooMany = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v']));
    await call('PUT', `/user_management/users/${id}`, { metadata: tooMany }, auth(tenant.key));
    expect(
      await call('PUT', `/user_management/users/${id}`, { metadata: { one_more: 'v' } }, auth(tenant.key)),
    ).toMatchObject({ status: 422, body: { code: 'invalid_request_parameters' } });
    expect((await call('PUT', '/user_management/users/user_UNKNOWN', { first_name: 'x' })).status).toBe(404);
  });

  it('deletes a user for good: 404 after, user.deleted delivered, its e-mail and external id free again', async () => {
    const tenant = await stack.newKey();
    await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: `${receiver.url}/deleted`, events: ['user.deleted'] },
      auth(tenant.key),
    );
    const created = await user('gone@example.com', { external_id: 'crm-gone' }, tenant.key);
    const id = created.body?.['id'] as string;
    const headers = { ...auth(tenant.key), 'idempotency-key': `delete-${id}` };
    expect((await call('DELETE', `/user_management/users/${id}`, undefined, headers)).status).toBe(204);
    // A retried request with the same key is answered as the first was.
    expect((await call('DELETE', `/user_management/users/${id}`, undefined, headers)).status).toBe(204);
    expect((await call('GET', `/user_management/users/${id}`, undefined, auth(tenant.key))).status).toBe(404);
    expect((await call('DELETE', `/user_management/users/${id}`, undefined, auth(tenant.key))).status).toBe(404);
    const delivered = await waitFor(
      () => receiver.requests.find((r) => r.path === '/webhooks/deleted' && r.body.includes(id)),
      { what: 'user.deleted webhook' },
    );
    const payload = JSON.parse(delivered.body) as { event: string; data: Record<string, unknown> };
    expect(payload.event).toBe('user.deleted');
    expect(payload.data).toMatchObject({ id, email: 'gone@example.com', external_id: 'crm-gone' });
    expect((await user('gone@example.com', { external_id: 'crm-gone' }, tenant.key)).status).toBe(201);
  });
});

describe('the Events API', () => {
  it('serves user events from the log the webhooks use, filtered, in order, after a cursor', async () => {
    const tenant = await stack.newKey();
    const as = auth(tenant.key);
    const endpoint = await call(
      'POST',
      '/webhook_endpoints',
      { endpoint_url: `${receiver.url}/events`, events: ['user.created'] },
      as,
    );
    expect(endpoint.status).toBe(201);
    const a = await user('ev-a@example.com', {}, tenant.key);
    const ida = a.body?.['id'] as string;
    await call('PUT', `/user_management/users/${ida}`, { first_name: 'A' }, as);
    const b = await user('ev-b@example.com', {}, tenant.key);
    await call('DELETE', `/user_management/users/${ida}`, undefined, as);
    const all = await waitFor(
      async () => {
        const r = await call('GET', '/events?limit=100', undefined, as);
        const data = r.body?.['data'] as Array<{ event: string }>;
        return data.length === 4 ? r : undefined;
      },
      { what: 'four events in the log', timeoutMs: 20_000 },
    );
    const events = all.body?.['data'] as Array<{
      object: string;
      id: string;
      event: string;
      data: { id: string };
      created_at: string;
    }>;
    expect(events.map((e) => [e.event, e.data.id]).sort()).toEqual(
      [
        ['user.created', ida],
        ['user.created', b.body?.['id']],
        ['user.deleted', ida],
        ['user.updated', ida],
      ].sort(),
    );
    // A user's own events keep their order.
    expect(events.filter((e) => e.data.id === ida).map((e) => e.event)).toEqual([
      'user.created',
      'user.updated',
      'user.deleted',
    ]);
    expect(events[0]).toMatchObject({ object: 'event' });
    expect(all.body?.['list_metadata']).toEqual({ before: null, after: events[3]!.id });

    // The webhook carried the same event id as the log.
    const hook = await waitFor(
      () => receiver.requests.find((r) => r.path === '/webhooks/events' && r.body.includes(ida)),
      {
        what: 'user.created webhook',
      },
    );
    expect(events.map((e) => e.id)).toContain(hook.headers['webhook-id']);

    const created = await call('GET', '/events?events[]=user.created&events[]=user.deleted', undefined, as);
    expect((created.body?.['data'] as Array<{ event: string }>).map((e) => e.event).sort()).toEqual([
      'user.created',
      'user.created',
      'user.deleted',
    ]);
    const page1 = await call('GET', '/events?limit=2', undefined, as);
    const page2 = await call(
      'GET',
      `/events?limit=2&after=${(page1.body?.['list_metadata'] as { after: string }).after}`,
      undefined,
      as,
    );
    expect(
      [...(page1.body?.['data'] as Array<{ id: string }>), ...(page2.body?.['data'] as Array<{ id: string }>)].map(
        (e) => e.id,
      ),
    ).toEqual(events.map((e) => e.id));
    const end = await call('GET', `/events?after=${events[3]!.id}`, undefined, as);
    expect(end.body).toEqual({ object: 'list', data: [], list_metadata: { before: null, after: events[3]!.id } });
    const desc = await call('GET', '/events?order=desc&limit=1', undefined, as);
    expect((desc.body?.['data'] as Array<{ id: string }>)[0]?.id).toBe(events[3]!.id);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      ((await call('GET', `/events?range_start=${future}`, undefined, as)).body?.['data'] as unknown[]).length,
    ).toBe(0);
    const past = new Date(Date.now() - 60 * 60_000).toISOString();
    expect(
      (
        (await call('GET', `/events?range_start=${past}&range_end=${future}`, undefined, as)).body?.[
          'data'
        ] as unknown[]
      ).length,
    ).toBe(4);
    // Another environment sees none of them.
    expect(
      ((await call('GET', '/events')).body?.['data'] as Array<{ id: string }>).some((e) =>
        events.some((x) => x.id === e.id),
      ),
    ).toBe(false);
  });

  it('refuses bad queries with 422', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'events[]=user.nope',
      'range_start=yesterday',
      `after=event_X&range_start=${new Date().toISOString()}`,
      'after=event_UNKNOWN',
      'color=red',
    ]) {
      const r = await call('GET', `/events?${query}`);
      expect([query, r.status]).toEqual([query, 422]);
      expect(r.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
  });
});

describe('OpenAPI and probes', () => {
  it('serves the OpenAPI document generated from the route schemas', async () => {
    const r = await stack.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(r.statusCode).toBe(200);
    const doc = JSON.parse(r.body) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/user_management/cors_origins',
        '/user_management/jwt_template',
        '/user_management/redirect_uris',
        '/webhook_endpoints',
        '/webhook_endpoints/{id}',
      ]),
    );
    expect((await stack.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });
});

describe('input the store cannot hold, refused at the edge', () => {
  it.each([['a.b'], ['$where'], ['n\u0000ul']])(
    'refuses the metadata key %j with 422 naming the field, and stores nothing',
    async (badKey) => {
      const email = `edge-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
      const started = Date.now();
      const refused = await call('POST', '/user_management/users', { email, metadata: { [badKey]: 'x' } });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        code: 'validation_failed',
        errors: [{ field: 'metadata', code: 'invalid_key' }],
      });
      expect(Date.now() - started).toBeLessThan(2000);
      // nothing was stored: the same e-mail is still free
      expect((await call('POST', '/user_management/users', { email, metadata: { plan: 'pro' } })).status).toBe(201);
    },
  );

  it('refuses a NUL character in a stored value with 422 naming the field (the store cannot hold it)', async () => {
    const email = `nul-${Date.now()}@example.com`;
    const refused = await call('POST', '/user_management/users', { email, metadata: { plan: 'p\u0000ro' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ errors: [{ field: 'metadata.plan', code: 'invalid_character' }] });
    expect((await call('POST', '/user_management/users', { email })).status).toBe(201);
  });

  it('refuses a NUL character in a path or query parameter in the API error shape', async () => {
    const inPath = await call('GET', '/user_management/users/user_a%00b');
    expect(inPath.status).toBe(422);
    expect(inPath.body).toMatchObject({ errors: [{ field: 'id', code: 'invalid_character' }] });
    const inQuery = await call('GET', '/webhook_endpoints?after=we_a%00b');
    expect(inQuery.status).toBe(422);
    expect(inQuery.body).toMatchObject({ errors: [{ field: 'after', code: 'invalid_character' }] });
  });

  it('answers a path parameter longer than its schema allows with 422, and one the router will not decode with 414', async () => {
    const long = await call('GET', `/user_management/users/user_${'x'.repeat(200)}`);
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ code: 'invalid_params' });
    const huge = await call('GET', `/user_management/users/${'x'.repeat(8193)}`);
    expect(huge.status).toBe(414);
    expect(huge.body).toEqual({ code: 'uri_too_long', message: 'A path parameter is longer than 8192 characters.' });
  });
});
