import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import type { CommandBus } from '@platform/kafka';
import type { InboxDoc, NotificationsStore } from '@platform/notifications';
import { createLogger, type Logger } from '@platform/telemetry';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { redactSessionParameter } from './session-redaction.js';
import { createWatchHub } from './watch-hub.js';

const DEPLOYMENT = 'dep-1';
const TOKEN = 'ntf_the-key-of-ada';
const member = (id: string, username: string, role: MemberRecord['role'] = 'member'): MemberRecord => ({
  _id: id,
  environment_id: DEPLOYMENT,
  username,
  name: username.toUpperCase(),
  email: `${username}@example.com`,
  role,
  links: [],
  created_at: new Date('2026-01-02T03:04:05Z'),
});
const ada = member('0190c5a8-0000-7000-8000-00000000000a', 'ada');
const bob = member('0190c5a8-0000-7000-8000-00000000000b', 'bob');
const ADAS = '0190c5a8-1111-7000-8000-000000000001';
const BOBS = '0190c5a8-2222-7000-8000-000000000002';
const owner: Record<string, string> = { [ADAS]: ada._id, [BOBS]: bob._id };

const inboxDoc = (id: string, userId: string): InboxDoc => ({
  _id: id,
  deployment_id: DEPLOYMENT,
  user_id: userId,
  template_id: '39b1e189-c857-4b0c-877a-511144c18516',
  targets: [],
  title: 't',
  content: 'c',
  icon: '',
  actions: [],
  read_at: null,
  created_at: new Date(),
  outbox: [],
  has_outbox: false,
});

/** The gateway with its outside systems faked: what it sent as commands, and what it logged. */
async function gateway(logger?: Logger) {
  const sent: Array<{ type: string; value: Record<string, unknown> }> = [];
  const accounts = {
    verifyKey: async (_service: string, token: string) =>
      token === TOKEN ? { keyId: 'k', environmentId: DEPLOYMENT, service: 'notifications', subject: ada._id } : null,
  } as unknown as Accounts;
  const members = {
    get: async (_env: string, id: string) => [ada, bob].find((u) => u._id === id) ?? null,
    find: async (_env: string, key: string) => [ada, bob].find((u) => u._id === key || u.username === key) ?? null,
  } as unknown as Members;
  const store = {
    inbox: {
      owns: async (env: string, userId: string, id: string) => env === DEPLOYMENT && owner[id] === userId,
      list: async (_env: string, userId: string) => [inboxDoc(ADAS, userId)],
      after: async () => [],
      unreadCount: async () => 1,
    },
  } as unknown as NotificationsStore;
  const commands = {
    send: async (type: string, _key: string, value: Record<string, unknown>) => {
      sent.push({ type, value });
      return { notification: { ...inboxDoc(ADAS, ada._id), id: ADAS }, unread_count: 0 };
    },
  } as unknown as CommandBus;
  const app = await buildApp({
    logger: logger ?? createLogger({ name: 'test', level: 'silent' }),
    accounts,
    members,
    store,
    commands,
    hub: createWatchHub(),
    methods: ['smtp'],
    watch: { maxFramesBehind: 256, pingMs: 15_000, slowGraceMs: 5_000, resumeLimit: 1_000 },
    onSlowReader: () => undefined,
    readiness: [],
    bodyLimit: 65_536,
  });
  apps.push(app);
  return { app, sent };
}

const apps: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const auth = { 'platform-session-token': TOKEN };

describe('PUT /notifications/inbox/{id}/read-status', () => {
  it('takes no body (the spec defines none) and marks the notification read', async () => {
    const { app, sent } = await gateway();
    const response = await app.inject({
      method: 'PUT',
      url: `/api/v2/notifications/inbox/${ADAS}/read-status`,
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Notification marked as read.' });
    expect(sent[0]?.value).toMatchObject({ notification_id: ADAS, is_read: true });
  });

  it('still takes {is_read: false}, and refuses a body of the wrong type', async () => {
    const { app, sent } = await gateway();
    const unread = await app.inject({
      method: 'PUT',
      url: `/api/v2/notifications/inbox/${ADAS}/read-status`,
      headers: auth,
      payload: { is_read: false },
    });
    expect(unread.statusCode).toBe(200);
    expect(sent[0]?.value).toMatchObject({ is_read: false });
    const bad = await app.inject({
      method: 'PUT',
      url: `/api/v2/notifications/inbox/${ADAS}/read-status`,
      headers: auth,
      payload: { is_read: 'yes' },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('PUT /notifications/inbox/mark-all-as-read', () => {
  it('refuses unknown query parameters as the list and the watch do, and sends nothing', async () => {
    const { app, sent } = await gateway();
    const response = await app.inject({
      method: 'PUT',
      url: '/api/v2/notifications/inbox/mark-all-as-read?colour=red',
      headers: auth,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'Query parameters have invalid values.',
      validations: [{ field: 'colour' }],
    });
    expect(sent).toEqual([]);
    const plain = await app.inject({
      method: 'PUT',
      url: '/api/v2/notifications/inbox/mark-all-as-read',
      headers: auth,
    });
    expect(plain.statusCode).toBe(204);
  });
});

describe('POST /notifications/custom', () => {
  it('answers a text/plain body 415 in the standard response object', async () => {
    const { app, sent } = await gateway();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v2/notifications/custom',
      headers: { ...auth, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
    const body = response.json();
    expect(body.message).toEqual(expect.any(String));
    expect(Object.keys(body).every((k) => ['message', 'detail', 'validations'].includes(k))).toBe(true);
    expect(body.message).not.toMatch(/content is required/);
    expect(sent).toEqual([]);
  });
});

describe('cursors are only the caller’s own notifications', () => {
  it("answers starting_before with someone else's id exactly as an unknown one: 404", async () => {
    const { app } = await gateway();
    const answers = await Promise.all(
      [BOBS, '0190c5a8-9999-7000-8000-000000000009'].map((id) =>
        app.inject({ method: 'GET', url: `/api/v2/notifications/inbox?starting_before=${id}`, headers: auth }),
      ),
    );
    for (const r of answers) {
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({
        message: 'Notification not found.',
        validations: [{ field: 'starting_before', detail: 'must be the id of one of your notifications' }],
      });
    }
    const own = await app.inject({
      method: 'GET',
      url: `/api/v2/notifications/inbox?starting_before=${ADAS}`,
      headers: auth,
    });
    expect(own.statusCode).toBe(200);
  });

  it("refuses a Last-Event-ID of someone else's notification before the stream opens", async () => {
    const { app } = await gateway();
    const answers = await Promise.all(
      [BOBS, '0190c5a8-9999-7000-8000-000000000009'].map((id) =>
        app.inject({
          method: 'GET',
          url: '/api/v2/notifications/inbox/watch',
          headers: { ...auth, accept: 'text/event-stream', 'last-event-id': id },
        }),
      ),
    );
    for (const r of answers) {
      expect(r.statusCode).toBe(404);
      expect(r.json()).toEqual({
        message: 'Notification not found.',
        validations: [{ field: 'last-event-id', detail: 'must be the id of one of your notifications' }],
      });
    }
  });
});

describe('GET /users/me', () => {
  it("answers the caller in Coder's User shape", async () => {
    const { app } = await gateway();
    const response = await app.inject({ method: 'GET', url: '/api/v2/users/me', headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: ada._id,
      username: 'ada',
      name: 'ADA',
      email: 'ada@example.com',
      created_at: '2026-01-02T03:04:05.000Z',
      updated_at: '2026-01-02T03:04:05.000Z',
      last_seen_at: expect.any(String),
      status: 'active',
      login_type: 'none',
      organization_ids: [],
      roles: [],
    });
    expect((await app.inject({ method: 'GET', url: '/api/v2/users/ada', headers: auth })).json().id).toBe(ada._id);
    expect((await app.inject({ method: 'GET', url: '/api/v2/users/bob', headers: auth })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/v2/users/me' })).statusCode).toBe(401);
  });
});

describe('the session token of a browser', () => {
  const watch = (query: string, headers: Record<string, string>) => ({
    method: 'GET' as const,
    url: `/api/v2/notifications/inbox/watch${query}`,
    headers: { accept: 'text/event-stream', ...headers },
  });

  it('is read on the watch stream from the platform_session_token cookie and query parameter', async () => {
    const { app } = await gateway();
    // An unknown token is 401 wherever it comes from; a known one passes authentication (here: to a bad filter).
    for (const request of [
      watch(`?platform_session_token=nope&read_status=maybe`, {}),
      watch('?read_status=maybe', { cookie: 'theme=dark; platform_session_token=nope' }),
    ])
      expect((await app.inject(request)).statusCode).toBe(401);
    for (const request of [
      watch(`?platform_session_token=${TOKEN}&read_status=maybe`, {}),
      watch('?read_status=maybe', { cookie: `theme=dark; platform_session_token=${TOKEN}` }),
    ]) {
      const r = await app.inject(request);
      expect(r.statusCode).toBe(400);
      expect(r.json().validations).toEqual([expect.objectContaining({ field: 'read_status' })]);
    }
  });

  it('is not taken from a cookie or the query by the other routes', async () => {
    const { app } = await gateway();
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/v2/users/me',
          headers: { cookie: `platform_session_token=${TOKEN}` },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v2/users/me?platform_session_token=${TOKEN}` })).statusCode,
    ).toBe(401);
  });

  it('never appears in the logs when it comes in the query', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ntf-log-')), 'gateway.log');
    const { app } = await gateway(createLogger({ name: 'test', level: 'debug', destination: file }));
    await app.inject(watch(`?platform_session_token=${TOKEN}&read_status=maybe`, {}));
    await app.inject(watch(`?read_status=all&platform_session_token=${TOKEN}&format=x`, { accept: 'text/html' }));
    await app.inject({ method: 'GET', url: `/api/v2/nowhere?platform_session_token=${TOKEN}` });
    const logged = readFileSync(file, 'utf8');
    expect(logged).toContain('/api/v2/notifications/inbox/watch?platform_session_token=REDACTED&read_status=maybe');
    expect(logged).toContain('incoming request');
    expect(logged).not.toContain(TOKEN);
  });

  it('is redacted from any URL, wherever the parameter stands', () => {
    expect(redactSessionParameter('/w?platform_session_token=abc&x=1')).toBe('/w?platform_session_token=REDACTED&x=1');
    expect(redactSessionParameter('/w?x=1&platform_session_token=abc')).toBe('/w?x=1&platform_session_token=REDACTED');
    expect(redactSessionParameter('/w?x=1&PLATFORM_SESSION_TOKEN=abc#f')).toBe(
      '/w?x=1&PLATFORM_SESSION_TOKEN=REDACTED#f',
    );
    expect(redactSessionParameter('/w?my_platform_session_token=abc')).toBe('/w?my_platform_session_token=abc');
    expect(redactSessionParameter('/w')).toBe('/w');
  });
});
