import type { AddressInfo } from 'node:net';
import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import type { CommandBus } from '@platform/kafka';
import type { NotificationsStore } from '@platform/notifications';
import { createLogger } from '@platform/telemetry';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../../app.js';
import { createWatchHub, type Subscriber } from '../../watch-hub.js';

const DEPLOYMENT = 'dep-1';
const TOKEN = 'ntf_the-key-of-ada';
const ada: MemberRecord = {
  _id: '0190c5a8-0000-7000-8000-00000000000a',
  environment_id: DEPLOYMENT,
  username: 'ada',
  name: 'ADA',
  email: 'ada@example.com',
  role: 'member',
  links: [],
  created_at: new Date('2026-01-02T03:04:05Z'),
};
const A = '0190f1c2-0000-7000-8000-00000000000a';
const B = '0190f1c2-0000-7000-8000-00000000000b';
const WATCH = '/api/v2/notifications/inbox/watch';
const LIST = '/api/v2/notifications/inbox';

/** The gateway listening on a free port, its outside systems faked; the filters of the streams it opened. */
async function gateway() {
  const accounts = {
    verifyKey: async (_service: string, token: string) =>
      token === TOKEN ? { keyId: 'k', environmentId: DEPLOYMENT, service: 'notifications', subject: ada._id } : null,
  } as unknown as Accounts;
  const members = { get: async (_env: string, id: string) => (id === ada._id ? ada : null) } as unknown as Members;
  const store = {
    inbox: { owns: async () => false, list: async () => [], after: async () => [], unreadCount: async () => 0 },
  } as unknown as NotificationsStore;
  const hub = createWatchHub();
  const opened: Array<Subscriber['filter']> = [];
  const app = await buildApp({
    logger: createLogger({ name: 'test', level: 'silent' }),
    accounts,
    members,
    store,
    commands: {} as CommandBus,
    hub: {
      ...hub,
      add: (subscriber: Subscriber) => {
        opened.push(subscriber.filter);
        return hub.add(subscriber);
      },
    },
    methods: ['smtp'],
    watch: { maxFramesBehind: 256, pingMs: 15_000, slowGraceMs: 5_000, resumeLimit: 1_000 },
    onSlowReader: () => undefined,
    readiness: [],
    bodyLimit: 65_536,
  });
  closers.push(async () => {
    hub.closeAll('test over');
    // fetch keeps its connection of an aborted stream alive for a while; the test is over.
    app.server.closeAllConnections();
    await app.close();
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, base, opened };
}

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const auth = { 'platform-session-token': TOKEN };

/** What a WebSocket client is answered: the refusal (status and JSON body) in place of the upgrade, or 101. */
function upgrade(base: string, query: string, headers: Record<string, string> = auth) {
  return new Promise<{ status: number; body?: unknown }>((resolve, reject) => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}${WATCH}${query}`, { headers });
    socket.once('open', () => {
      socket.once('close', () => resolve({ status: 101 }));
      socket.terminate();
    });
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    socket.once('error', reject);
  });
}

/** What a Server-Sent Events client is answered: the refusal, or 200 (the stream is then closed at once). */
async function sse(base: string, query: string, headers: Record<string, string> = auth) {
  const abort = new AbortController();
  const response = await fetch(`${base}${WATCH}${query}`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  if (response.status === 200) {
    abort.abort();
    return { status: 200 };
  }
  return { status: response.status, body: (await response.json()) as unknown };
}

async function list(base: string, query: string) {
  const response = await fetch(`${base}${LIST}${query}`, { headers: auth });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('GET /api/v2/notifications/inbox/watch: the query', () => {
  it('is refused by the route schema exactly as the list refuses it, on SSE and before a WebSocket upgrade', async () => {
    const { base, opened } = await gateway();
    for (const query of [
      '?colour=red',
      '?read_status=maybe',
      '?targets=nope',
      `?templates=${A}&templates=nope`,
      '?read_status=read&read_status=unread',
      '?read_status=maybe&colour=red&targets=nope',
    ]) {
      const expected = await list(base, query);
      expect(expected.status, query).toBe(400);
      expect(await sse(base, query), query).toEqual(expected);
      expect(await upgrade(base, query), query).toEqual(expected);
    }
    expect(opened).toEqual([]);
  });

  it('refuses the list’s starting_before and a repeated format as parameters it does not take', async () => {
    const { base } = await gateway();
    const cases = [
      ['?starting_before=' + A, { field: 'starting_before', detail: 'starting_before is not a known field' }],
      ['?format=plaintext&format=markdown', { field: 'format', detail: 'format must be a string' }],
    ] as const;
    for (const [query, validation] of cases) {
      const expected = {
        status: 400,
        body: { message: 'Query parameters have invalid values.', validations: [validation] },
      };
      expect(await sse(base, query), query).toEqual(expected);
      expect(await upgrade(base, query), query).toEqual(expected);
    }
  });

  it('refuses more than 100 ids in a list, comma-separated or repeated, on the list, on SSE and before an upgrade', async () => {
    const { base, opened } = await gateway();
    const ids = Array.from({ length: 101 }, (_, i) => `0190f1c2-0000-7000-8000-${String(i).padStart(12, '0')}`);
    // Repeated values of two ids each: 50 of them hold 100 ids, one more id makes 101.
    const pairs = Array.from({ length: 50 }, (_, i) => `${ids[2 * i]},${ids[2 * i + 1]}`);
    const repeated = (key: string, values: string[]) => values.map((v) => `${key}=${encodeURIComponent(v)}`).join('&');
    const refusal = (field: string) => ({
      status: 400,
      body: {
        message: 'Query parameters have invalid values.',
        validations: [
          { field, detail: `${field} must be UUIDs, comma-separated or the parameter repeated, at most 100` },
        ],
      },
    });
    const cases = [
      [`?targets=${ids.join(',')}`, 'targets'],
      [`?templates=${encodeURIComponent(ids.join(' , '))}`, 'templates'],
      // Counted before deduplication, as sent.
      [`?targets=${Array<string>(101).fill(A).join(',')}`, 'targets'],
      [`?${repeated('templates', [...pairs, ids[100]!])}`, 'templates'],
      [`?${repeated('targets', [...ids.slice(0, 99), `${A},${B}`])}`, 'targets'],
    ] as const;
    for (const [query, field] of cases) {
      expect(await list(base, query), query.slice(0, 80)).toEqual(refusal(field));
      expect(await sse(base, query), query.slice(0, 80)).toEqual(refusal(field));
      expect(await upgrade(base, query), query.slice(0, 80)).toEqual(refusal(field));
    }
    // The route schema counts a comma-separated value: a bad read_status beside it is named in the same answer.
    const both = `?targets=${ids.join(',')}&read_status=maybe`;
    const bothRefused = {
      status: 400,
      body: {
        message: 'Query parameters have invalid values.',
        validations: [
          ...refusal('targets').body.validations,
          { field: 'read_status', detail: 'read_status must be one of "all", "read", "unread"' },
        ],
      },
    };
    expect(await list(base, both)).toEqual(bothRefused);
    expect(await sse(base, both)).toEqual(bothRefused);
    expect(await upgrade(base, both)).toEqual(bothRefused);
    expect(opened).toEqual([]);

    // Exactly 100, in each form, opens the streams.
    for (const query of [
      `?targets=${ids.slice(0, 100).join(',')}&templates=${Array<string>(100).fill(A).join(',')}`,
      `?${repeated('targets', pairs)}&${repeated('templates', [...ids.slice(0, 98), `${ids[98]}, ${ids[99]},`, ' '])}`,
    ]) {
      expect((await list(base, query)).status, query.slice(0, 80)).toBe(200);
      expect(await sse(base, query), query.slice(0, 80)).toEqual({ status: 200 });
      expect(await upgrade(base, query), query.slice(0, 80)).toEqual({ status: 101 });
    }
    expect(opened.map((filter) => filter.targets.length)).toEqual([100, 100, 100, 100]);
  });

  it('refuses a bad UUID and a bad read_status with the schema’s 400, on the list, on SSE and before an upgrade', async () => {
    const { base, opened } = await gateway();
    const refusal = (...validations: Array<{ field: string; detail: string }>) => ({
      status: 400,
      body: { message: 'Query parameters have invalid values.', validations },
    });
    const list_ = (field: string) => ({
      field,
      detail: `${field} must be UUIDs, comma-separated or the parameter repeated, at most 100`,
    });
    const status = { field: 'read_status', detail: 'read_status must be one of "all", "read", "unread"' };
    const cases = [
      [`?targets=${A},nope`, refusal(list_('targets'))],
      // 36 characters, shaped as a UUID, with a letter that is not hexadecimal.
      [`?templates=${B},g${A.slice(1)}`, refusal(list_('templates'))],
      [`?templates=${A}&templates=urn:uuid:${B}`, refusal(list_('templates'))],
      // Only spaces and tabs go around an id: a newline or a no-break space is not trimmed away.
      [`?targets=%0A${A}`, refusal(list_('targets'))],
      [`?templates=${A}%C2%A0`, refusal(list_('templates'))],
      [`?targets=${A}%20${B}`, refusal(list_('targets'))],
      ['?read_status=maybe', refusal(status)],
      ['?read_status=READ', refusal(status)],
      ['?read_status=%20read', refusal(status)],
      ['?read_status=', refusal(status)],
      [`?targets=nope&read_status=all&read_status=read`, refusal(list_('targets'), status)],
    ] as const;
    for (const [query, expected] of cases) {
      expect(await list(base, query), query).toEqual(expected);
      expect(await sse(base, query), query).toEqual(expected);
      expect(await upgrade(base, query), query).toEqual(expected);
    }
    expect(opened).toEqual([]);
  });

  it('takes ids in either case, spaces and tabs around them and empty items, as it always has', async () => {
    const { base, opened } = await gateway();
    const query = `?targets=${encodeURIComponent(` ,${A.toUpperCase()}\t, ,${B} ,`)}&templates=&templates=%2C&read_status=read`;
    expect((await list(base, query)).status).toBe(200);
    expect(await sse(base, query)).toEqual({ status: 200 });
    expect(await upgrade(base, query)).toEqual({ status: 101 });
    const filter = { targets: [A, B], templates: [], readStatus: 'read', format: 'markdown' };
    expect(opened).toEqual([filter, filter]);
  });

  it('takes the list’s starting_before as a plain UUID only (not the urn:uuid: form), checked by its schema', async () => {
    const { base } = await gateway();
    const invalid = {
      status: 400,
      body: {
        message: 'Query parameters have invalid values.',
        validations: [{ field: 'starting_before', detail: 'starting_before must be a valid uuid' }],
      },
    };
    for (const cursor of [`urn:uuid:${A}`, `%20${A}`, '', 'nope'])
      expect(await list(base, `?starting_before=${cursor}`), cursor).toEqual(invalid);
    // A well-formed cursor, in either case, is judged by the store: not one of the caller's notifications here.
    for (const cursor of [A, A.toUpperCase()])
      expect((await list(base, `?starting_before=${cursor}`)).status, cursor).toBe(404);
  });

  it('opens either stream with the filters read from the query, the session token beside them', async () => {
    const { base, opened } = await gateway();
    const query = `?targets=${B.toUpperCase()},%20${A}&targets=${A}&templates=&read_status=unread&format=html`;
    expect(await sse(base, query)).toEqual({ status: 200 });
    expect(await upgrade(base, `${query}&platform_session_token=${TOKEN}`, {})).toEqual({ status: 101 });
    expect(opened).toEqual([
      { targets: [B, A], templates: [], readStatus: 'unread', format: 'markdown' },
      { targets: [B, A], templates: [], readStatus: 'unread', format: 'markdown' },
    ]);
  });

  it('is documented in the OpenAPI document: the filters and format, the session token as a query security scheme', async () => {
    const { app } = await gateway();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        { get: { parameters: Array<{ in: string; name: string }>; security: Array<Record<string, string[]>> } }
      >;
      components: { securitySchemes: Record<string, { in: string; name: string }> };
    };
    const watch = document.paths[WATCH]!.get;
    const names = watch.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    expect(names.sort()).toEqual(['format', 'read_status', 'targets', 'templates']);
    // @fastify/swagger leaves a query parameter a security scheme of the route names out of `parameters`.
    expect(watch.security).toContainEqual({ sessionQuery: [] });
    expect(document.components.securitySchemes['sessionQuery']).toMatchObject({
      in: 'query',
      name: 'platform_session_token',
    });
  });
});
