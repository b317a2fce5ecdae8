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

  it('refuses more than 100 ids in one list, which only the reader counts, before any stream opens', async () => {
    const { base, opened } = await gateway();
    const ids = Array.from({ length: 101 }, (_, i) => `0190f1c2-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const expected = {
      status: 400,
      body: {
        message: 'Query parameters have invalid values.',
        validations: [{ field: 'targets', detail: 'Query param "targets" has more than 100 values.' }],
      },
    };
    expect(await sse(base, `?targets=${ids.join(',')}`)).toEqual(expected);
    expect(await upgrade(base, `?targets=${ids.join(',')}`)).toEqual(expected);
    expect(opened).toEqual([]);
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
