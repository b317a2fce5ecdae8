import { MessageTypeNames } from '@platform/contracts';
import { PLATFORM_NOTICES_DEPLOYMENT, TEMPLATE_IDS } from '@platform/notifications';
import { startWebhookReceiver, uniqueName, waitFor, type WebhookReceiver } from '@platform/testing';
import { verifyStandardSignature } from '@platform/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { messageText, messagesTo, waitForMail } from '../support/mailbox.js';
import {
  WATCH_TIMING,
  WEBHOOK_SECRET,
  startNotificationsStack,
  type NotificationsStack,
  type NotificationsUser,
} from '../support/notifications-stack.js';

let stack: NotificationsStack;
let receiver: WebhookReceiver;
let deploymentId: string;
let owner: NotificationsUser;
let member: NotificationsUser;
let system: NotificationsUser;
let a: string;
let b: string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function call(
  base: string,
  who: NotificationsUser | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}/api/v2${path}`, {
    method,
    headers: {
      ...(who ? { 'platform-session-token': who.token } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & unknown[] };
}

const custom = (who: NotificationsUser, title: string, message = '', base = a) =>
  call(base, who, 'POST', '/notifications/custom', { content: { title, message } });

interface InboxItem {
  id: string;
  title: string;
  content: string;
  template_id: string;
  read_at: string | null;
  user_id: string;
}

async function inbox(who: NotificationsUser, query = '') {
  const r = await call(a, who, 'GET', `/notifications/inbox${query}`);
  expect(r.status).toBe(200);
  return r.body as unknown as { notifications: InboxItem[]; unread_count: number };
}

async function waitForInbox(who: NotificationsUser, count: number, query = '') {
  return waitFor(
    async () => {
      const list = await inbox(who, query);
      return list.notifications.length >= count ? list : undefined;
    },
    { timeoutMs: 30_000, what: `${count} notifications in the inbox` },
  );
}

/** A watcher on a WebSocket: every frame it received, and how it was closed. */
function watchSocket(base: string, who: NotificationsUser, query = '') {
  const frames: Array<{ notification: InboxItem; unread_count: number }> = [];
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/v2/notifications/inbox/watch${query}`, {
    headers: { 'platform-session-token': who.token },
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(new Error(`watch answered ${res.statusCode}`)));
    socket.once('error', reject);
  });
  return { socket, frames, closed, opened };
}

/** A watcher over Server-Sent Events: events as they arrive (id, event, data), until aborted. */
function watchSse(base: string, who: NotificationsUser, lastEventId?: string) {
  const events: Array<{ id: string; event: string; data: Record<string, unknown> }> = [];
  const controller = new AbortController();
  const done = (async () => {
    const response = await fetch(`${base}/api/v2/notifications/inbox/watch`, {
      headers: {
        'platform-session-token': who.token,
        accept: 'text/event-stream',
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = Object.fromEntries(
          block
            .split('\n')
            .filter((l) => !l.startsWith(':') && l.includes(':'))
            .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trimStart()]),
        );
        if (fields['data'])
          events.push({
            id: fields['id'] ?? '',
            event: fields['event'] ?? 'message',
            data: JSON.parse(fields['data']),
          });
      }
    }
  })().catch((error: unknown) => {
    if ((error as Error).name !== 'AbortError') throw error;
  });
  return { events, done, close: () => controller.abort() };
}

/**
 * The barrier before sending to watchers: the gateways hold this many streams of the user (a stream counts once
 * the hub has it, so a notification sent after this reaches it).
 */
async function streamsOpen(who: NotificationsUser, expected: [number, number]) {
  await waitFor(
    async () => {
      const open = stack.watchStreams(who);
      return open[0] === expected[0] && open[1] === expected[1] ? open : undefined;
    },
    { timeoutMs: 10_000, what: `watch streams ${expected.join(' and ')} on the replicas` },
  );
}

beforeAll(async () => {
  receiver = await startWebhookReceiver('/notifications');
  stack = await startNotificationsStack({ webhookUrl: receiver.url, maxFramesBehind: 24 });
  [a, b] = stack.urls;
  ({ deploymentId, owner } = await stack.newDeployment());
  member = await stack.addUser(deploymentId, 'member');
  system = await stack.addUser(deploymentId, 'system');
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await receiver?.close();
});

describe('notifications API: authentication and validation', () => {
  it('answers 401 with the standard response object without a token or with an unknown one', async () => {
    const none = await call(a, null, 'GET', '/notifications/settings');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      message: 'You are signed out or your session has expired. Please sign in again to continue.',
      detail: 'Session token must be provided in the Platform-Session-Token header.',
    });
    const unknown = await call(a, { ...owner, token: 'ntf_not-a-key' }, 'GET', '/notifications/settings');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ detail: 'API key is invalid.' });
  });

  it('refuses a custom notification with neither title nor message, naming both fields, and sends nothing', async () => {
    const r = await custom(member, '  ', '');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      message: 'Invalid request body',
      validations: [{ field: 'content', detail: "content needs a non-empty 'content.title' or 'content.message'" }],
    });
    expect((await call(a, member, 'POST', '/notifications/custom', '{"content":')).body).toMatchObject({
      message: 'Request body must be valid JSON.',
    });
    expect((await call(a, member, 'POST', '/notifications/custom', {})).body).toEqual({
      message: 'Invalid request body',
      validations: [{ field: 'content', detail: 'content is required' }],
    });
    expect((await inbox(member)).notifications).toEqual([]);
  });

  it('forbids custom notifications from system users', async () => {
    const r = await custom(system, 'From a robot');
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ message: 'Forbidden.', detail: 'System users cannot send custom notifications.' });
  });

  it('answers unknown and bad inbox query parameters with validations naming them', async () => {
    const r = await call(a, member, 'GET', '/notifications/inbox?read_status=maybe&colour=red&starting_before=nope');
    expect(r.status).toBe(400);
    expect(r.body['message']).toBe('Query parameters have invalid values.');
    const fields = (r.body['validations'] as Array<{ field: string }>).map((v) => v.field).sort();
    expect(fields).toEqual(['colour', 'read_status', 'starting_before']);
  });
});

describe('notifications API: sending and the inbox', () => {
  it('delivers a custom notification to the caller by inbox, e-mail and signed webhook', async () => {
    const title = `Deploy finished ${uniqueName('t')}`;
    expect((await custom(owner, title, 'The **build** passed.')).status).toBe(204);
    const list = await waitForInbox(owner, 1);
    const item = list.notifications.find((n) => n.title === title)!;
    expect(item).toMatchObject({
      user_id: owner.user._id,
      template_id: TEMPLATE_IDS.customNotification,
      content: 'The **build** passed.',
      read_at: null,
      icon: 'DEFAULT_ICON_OTHER',
      targets: [],
      actions: [],
    });
    expect(item.id).toMatch(UUID);
    expect(list.unread_count).toBeGreaterThanOrEqual(1);

    const mail = await waitForMail(owner.user.email!, title);
    expect(await messageText(mail.ID)).toContain('The build passed.');

    const hook = await waitFor(async () => receiver.requests.find((r) => r.body.includes(title)), {
      timeoutMs: 30_000,
      what: 'the webhook',
    });
    expect(
      verifyStandardSignature(
        {
          id: String(hook.headers['webhook-id']),
          timestamp: String(hook.headers['webhook-timestamp']),
          signature: String(hook.headers['webhook-signature']),
        },
        hook.body,
        [WEBHOOK_SECRET],
      ),
    ).toBe(true);
    expect(JSON.parse(hook.body)).toMatchObject({
      msg_id: item.id,
      title_markdown: title,
      body: 'The build passed.',
      payload: { user_id: owner.user._id, notification_template_id: TEMPLATE_IDS.customNotification },
    });
    // Only the caller gets it.
    expect((await inbox(member)).notifications.some((n) => n.title === title)).toBe(false);
  });

  it('pages the inbox newest first, 25 at a time, with starting_before; filters by template and read status', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    for (let i = 0; i < 27; i++) expect((await custom(user, `Page item ${i}`)).status).toBe(204);
    const first = await waitFor(async () => ((await inbox(user)).unread_count === 27 ? inbox(user) : undefined), {
      timeoutMs: 30_000,
      what: '27 unread',
    });
    expect(first.notifications).toHaveLength(25);
    expect(first.notifications.map((n) => n.title)).toEqual(
      Array.from({ length: 25 }, (_, i) => `Page item ${26 - i}`),
    );
    const second = await inbox(user, `?starting_before=${first.notifications[24]!.id}`);
    expect(second.notifications.map((n) => n.title)).toEqual(['Page item 1', 'Page item 0']);
    expect(second.unread_count).toBe(27);
    expect((await inbox(user, `?templates=${TEMPLATE_IDS.testNotification}`)).notifications).toEqual([]);
    expect((await inbox(user, '?read_status=read')).notifications).toEqual([]);

    const read = await call(a, user, 'PUT', `/notifications/inbox/${first.notifications[0]!.id}/read-status`, {
      is_read: true,
    });
    expect(read.status).toBe(200);
    expect(read.body['message']).toBe('Notification marked as read.');
    expect(read.body['unread_count']).toBe(26);
    expect((read.body['notification'] as InboxItem).read_at).not.toBeNull();
    expect((await inbox(user, '?read_status=read')).notifications.map((n) => n.id)).toEqual([
      first.notifications[0]!.id,
    ]);
    const unread = await call(a, user, 'PUT', `/notifications/inbox/${first.notifications[0]!.id}/read-status`, {
      is_read: false,
    });
    expect(unread.body).toMatchObject({
      message: 'Notification marked as unread.',
      unread_count: 27,
      notification: { read_at: null },
    });

    expect((await call(a, user, 'PUT', '/notifications/inbox/mark-all-as-read')).status).toBe(204);
    expect((await inbox(user)).unread_count).toBe(0);
  });

  it("never shows or changes another user's notification: 404, as for an unknown id", async () => {
    await custom(member, 'Mine only');
    const mine = (await waitForInbox(member, 1)).notifications[0]!;
    const other = await call(a, owner, 'PUT', `/notifications/inbox/${mine.id}/read-status`, { is_read: true });
    expect(other.status).toBe(404);
    expect(
      (
        await call(a, owner, 'PUT', '/notifications/inbox/0190c5a8-0000-7000-8000-000000000000/read-status', {
          is_read: true,
        })
      ).status,
    ).toBe(404);
    expect((await call(a, owner, 'PUT', '/notifications/inbox/nope/read-status', { is_read: true })).body).toEqual({
      message: 'Invalid UUID "nope".',
    });
    expect((await inbox(member)).notifications.find((n) => n.id === mine.id)?.read_at).toBeNull();
  });

  it('lists the templates with stable ids and the dispatch methods', async () => {
    const system = (await call(a, member, 'GET', '/notifications/templates/system')).body as unknown as Array<{
      id: string;
      kind: string;
    }>;
    expect(system.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        TEMPLATE_IDS.testNotification,
        TEMPLATE_IDS.userAccountCreated,
        TEMPLATE_IDS.oauthClientAccepted,
        TEMPLATE_IDS.oauthClientRejected,
        TEMPLATE_IDS.imageQuotaNearlyUsed,
      ]),
    );
    expect(system.every((t) => t.kind === 'system')).toBe(true);
    const customs = (await call(a, member, 'GET', '/notifications/templates/custom')).body as unknown as Array<{
      id: string;
    }>;
    expect(customs.map((t) => t.id)).toEqual([TEMPLATE_IDS.customNotification]);
    expect((await call(a, member, 'GET', '/notifications/dispatch-methods')).body).toEqual([
      { available: ['smtp', 'webhook'], default: 'smtp' },
    ]);
  });

  it('sends the test notification to an owner (200) and refuses members', async () => {
    const r = await call(a, owner, 'POST', '/notifications/test');
    expect(r.status).toBe(200);
    expect(r.body).toBeNull();
    await waitFor(async () => (await inbox(owner, `?templates=${TEMPLATE_IDS.testNotification}`)).notifications[0], {
      what: 'the test notification',
    });
    await waitForMail(owner.user.email!, 'A test notification');
    expect((await call(a, member, 'POST', '/notifications/test')).status).toBe(403);
  });
});

describe('notifications API: preferences and settings', () => {
  it('disables a template for a user: the full list back, nothing delivered by any method', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    expect((await call(a, user, 'GET', '/users/me/notifications/preferences')).body).toEqual([]);
    const put = await call(a, user, 'PUT', `/users/${user.user.username}/notifications/preferences`, {
      template_disabled_map: { [TEMPLATE_IDS.customNotification]: true },
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual([{ id: TEMPLATE_IDS.customNotification, disabled: true, updated_at: expect.any(String) }]);
    expect((await call(a, user, 'GET', `/users/${user.user._id}/notifications/preferences`)).body).toEqual(put.body);

    await custom(user, 'Muted');
    await call(a, owner, 'POST', '/notifications/test'); // a later notification of someone else, to know the muted one had its chance
    await waitFor(
      async () =>
        (await inbox(owner, `?templates=${TEMPLATE_IDS.testNotification}`)).notifications.length >= 2 || undefined,
      { what: 'the second test' },
    );
    expect((await inbox(user)).notifications).toEqual([]);
    expect(await messagesTo(user.user.email!)).toEqual([]);

    const bad = await call(a, user, 'PUT', '/users/me/notifications/preferences', {
      template_disabled_map: { 'not-a-uuid': true, '0190c5a8-0000-7000-8000-000000000000': true },
    });
    expect(bad.status).toBe(400);
    expect(bad.body['validations']).toEqual([
      {
        field: 'template_disabled_map',
        detail: 'template_disabled_map may only have notification template ids as keys.',
      },
    ]);
    const unknownUser = await call(a, user, 'GET', '/users/nobody-here/notifications/preferences');
    expect(unknownUser.status).toBe(404);
    expect(unknownUser.body).toEqual({
      message: '"user" must be an existing uuid or username.',
      validations: [{ field: 'user', detail: 'queried user="nobody-here"' }],
    });
    expect((await call(a, user, 'GET', `/users/${owner.user._id}/notifications/preferences`)).status).toBe(403);
    expect((await call(a, owner, 'GET', `/users/${user.user._id}/notifications/preferences`)).status).toBe(200);
  });

  it('pauses and resumes the notifier: owners only, 304 for no change, and what waited goes out in order', async () => {
    expect((await call(a, member, 'GET', '/notifications/settings')).body).toEqual({ notifier_paused: false });
    expect((await call(a, member, 'PUT', '/notifications/settings', { notifier_paused: false })).status).toBe(304);
    const refused = await call(a, member, 'PUT', '/notifications/settings', { notifier_paused: true });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'Forbidden.' });
    expect((await call(a, owner, 'PUT', '/notifications/settings', { notifier_paused: true })).body).toEqual({
      notifier_paused: true,
    });

    const user = await stack.addUser(deploymentId, 'member');
    for (let i = 0; i < 5; i++) expect((await custom(user, `Queued ${i}`)).status).toBe(204);
    // Each 204 means its notification is queued: all five wait there, while several dispatch sweeps pass.
    const queued = stack.mongo.db!.collection('notif_outgoing');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await queued.countDocuments({ user_id: user.user._id, pending: { $gt: 0 } })).toBe(5);
    expect((await inbox(user)).notifications).toEqual([]);
    expect(await messagesTo(user.user.email!)).toEqual([]);

    expect((await call(a, owner, 'PUT', '/notifications/settings', { notifier_paused: false })).body).toEqual({
      notifier_paused: false,
    });
    const list = await waitForInbox(user, 5);
    expect(list.notifications.map((n) => n.title)).toEqual([
      'Queued 4',
      'Queued 3',
      'Queued 2',
      'Queued 1',
      'Queued 0',
    ]);
    const mails = await waitFor(
      async () => ((await messagesTo(user.user.email!)).length === 5 ? messagesTo(user.user.email!) : undefined),
      { what: 'five e-mails' },
    );
    expect(mails.map((m) => m.Subject).sort()).toEqual(['Queued 0', 'Queued 1', 'Queued 2', 'Queued 3', 'Queued 4']);
  });
});

describe('notifications API: watch streams', () => {
  it('streams notifications sent through one replica to WebSocket and SSE watchers on the other', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    const ws = watchSocket(b, user);
    const plain = watchSocket(b, user, '?format=plaintext');
    const sse = watchSse(b, user);
    await Promise.all([ws.opened, plain.opened]);
    await streamsOpen(user, [0, 3]);
    expect((await custom(user, '# Heads up', 'This is the __content__.', a)).status).toBe(204);
    expect((await custom(user, 'Second', '', a)).status).toBe(204);
    await waitFor(
      async () => (ws.frames.length === 2 && plain.frames.length === 2 && sse.events.length === 2) || undefined,
      { what: 'two frames on each stream' },
    );
    expect(ws.frames.map((f) => f.notification.title)).toEqual(['# Heads up', 'Second']);
    expect(ws.frames.map((f) => f.unread_count)).toEqual([1, 2]);
    expect(plain.frames[0]!.notification).toMatchObject({ title: 'Heads up', content: 'This is the content.' });
    expect(sse.events.map((e) => [e.event, e.id])).toEqual(ws.frames.map((f) => ['notification', f.notification.id]));
    expect(sse.events[0]!.data).toEqual(ws.frames[0]);
    ws.socket.close();
    plain.socket.close();
    sse.close();
  });

  it('refuses a watch with bad filters before upgrading, and a plain GET that asks for neither transport', async () => {
    const bad = watchSocket(a, member, '?starting_before=0190c5a8-0000-7000-8000-000000000000');
    await expect(bad.opened).rejects.toThrow('watch answered 400');
    const plain = await call(a, member, 'GET', '/notifications/inbox/watch');
    expect(plain.status).toBe(400);
  });

  it('resumes an SSE stream with Last-Event-ID: exactly the missed notifications, in order', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    const first = watchSse(b, user);
    await streamsOpen(user, [0, 1]);
    await custom(user, 'Seen');
    await waitFor(async () => first.events.length === 1 || undefined, { what: 'the first event' });
    first.close();
    const lastId = first.events[0]!.id;
    for (const title of ['Missed 1', 'Missed 2', 'Missed 3']) await custom(user, title);
    await waitForInbox(user, 4);
    const resumed = watchSse(a, user, lastId);
    await waitFor(async () => resumed.events.length >= 3 || undefined, { what: 'the missed events' });
    await custom(user, 'Live');
    await waitFor(async () => resumed.events.length >= 4 || undefined, { what: 'the live event' });
    // A user's events arrive in order: once a later one is there, a duplicate of any before it would be too.
    await custom(user, 'Later');
    await waitFor(
      async () => resumed.events.some((e) => (e.data['notification'] as InboxItem).title === 'Later') || undefined,
      {
        what: 'the later event',
      },
    );
    expect(resumed.events.map((e) => (e.data['notification'] as InboxItem).title)).toEqual([
      'Missed 1',
      'Missed 2',
      'Missed 3',
      'Live',
      'Later',
    ]);
    resumed.close();
  });

  it('closes a reader that stops reading with 1013 and a reason, while a fast one on the same gateway keeps receiving', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    const slow = watchSocket(a, user);
    const fast = watchSocket(a, user);
    await Promise.all([slow.opened, fast.opened]);
    await streamsOpen(user, [2, 0]);
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const total = 40;
    for (let i = 0; i < total; i++) expect((await custom(user, `Burst ${i}`, 'x'.repeat(1500))).status).toBe(204);
    await waitFor(async () => fast.frames.length === total || undefined, {
      timeoutMs: 45_000,
      what: 'every frame on the fast reader',
    });
    expect(fast.frames.map((f) => f.notification.title)).toEqual(Array.from({ length: total }, (_, i) => `Burst ${i}`));
    // The gateway closes a reader once its oldest ping has gone unanswered for the grace, at a ping tick or a
    // frame: resumed before that, the reader would catch up and rightly stay open (and a burst that a fast
    // machine sends within the grace would leave this test waiting for a close that never comes).
    await new Promise((resolve) => setTimeout(resolve, WATCH_TIMING.slowGraceMs + WATCH_TIMING.pingMs + 1000));
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await slow.closed;
    expect(closed.code).toBe(1013);
    expect(closed.reason).toMatch(/^too far behind: \d+ notifications unsent; reconnect$/);
    // Whatever it got before the close is a gapless prefix.
    expect(slow.frames.map((f) => f.notification.title)).toEqual(
      Array.from({ length: slow.frames.length }, (_, i) => `Burst ${i}`),
    );
    fast.socket.close();
  });
});

describe('notifications API: what browsers and Coder clients send (issue 40)', () => {
  it('marks a notification read on a read-status PUT with no body (the spec defines none)', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    await custom(user, 'Read me');
    const [item] = (await waitForInbox(user, 1)).notifications;
    const r = await call(a, user, 'PUT', `/notifications/inbox/${item!.id}/read-status`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ message: 'Notification marked as read.', unread_count: 0 });
    expect((await inbox(user)).notifications[0]!.read_at).not.toBeNull();
  });

  it('refuses unknown query parameters on mark-all-as-read as the list and the watch do, marking nothing', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    await custom(user, 'Still unread');
    await waitForInbox(user, 1);
    const r = await call(a, user, 'PUT', '/notifications/inbox/mark-all-as-read?read_status=unread');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      message: 'Query parameters have invalid values.',
      validations: [{ field: 'read_status', detail: expect.any(String) }],
    });
    expect((await inbox(user)).unread_count).toBe(1);
  });

  it('answers a custom notification sent as text/plain 415 in the standard response object', async () => {
    const r = await call(a, member, 'POST', '/notifications/custom', JSON.stringify({ content: { title: 'x' } }), {
      'content-type': 'text/plain',
    });
    expect(r.status).toBe(415);
    expect(Object.keys(r.body).sort()).toEqual(['message']);
  });

  it("gives the e-mail of a custom notification without a title the template's name as its Subject", async () => {
    const user = await stack.addUser(deploymentId, 'member');
    const message = `Only a message ${uniqueName('m')}`;
    expect((await custom(user, '', message)).status).toBe(204);
    const mail = await waitFor(async () => (await messagesTo(user.user.email!))[0], { what: 'the e-mail' });
    expect(mail.Subject).toBe('Custom Notification');
    expect(await messageText(mail.ID)).toContain(message);
    expect((await inbox(user)).notifications[0]).toMatchObject({ title: '', content: message });
  });

  it("answers another user's notification as a cursor 404, exactly as an unknown one (starting_before, Last-Event-ID)", async () => {
    const user = await stack.addUser(deploymentId, 'member');
    const other = await stack.addUser(deploymentId, 'member');
    await custom(user, 'Mine');
    await custom(other, 'Theirs');
    const mine = (await waitForInbox(user, 1)).notifications[0]!;
    const theirs = (await waitForInbox(other, 1)).notifications[0]!;
    const unknown = '0190c5a8-0000-7000-8000-000000000000';
    const pages = await Promise.all(
      [theirs.id, unknown].map((id) => call(a, user, 'GET', `/notifications/inbox?starting_before=${id}`)),
    );
    for (const page of pages) {
      expect(page.status).toBe(404);
      expect(page.body).toEqual({
        message: 'Notification not found.',
        validations: [{ field: 'starting_before', detail: 'must be the id of one of your notifications' }],
      });
    }
    expect((await call(a, user, 'GET', `/notifications/inbox?starting_before=${mine.id}`)).status).toBe(200);
    const resumes = await Promise.all(
      [theirs.id, unknown].map((id) =>
        call(a, user, 'GET', '/notifications/inbox/watch', undefined, {
          accept: 'text/event-stream',
          'last-event-id': id,
        }),
      ),
    );
    for (const resume of resumes) {
      expect(resume.status).toBe(404);
      expect(resume.body).toEqual({
        message: 'Notification not found.',
        validations: [{ field: 'last-event-id', detail: 'must be the id of one of your notifications' }],
      });
    }
  });

  it("answers GET /users/me (what Coder's Go SDK calls first) with the caller as a codersdk.User", async () => {
    const me = await call(a, owner, 'GET', '/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: owner.user._id,
      username: owner.user.username,
      name: owner.user.name,
      email: owner.user.email,
      created_at: new Date(owner.user.created_at).toISOString(),
      updated_at: expect.any(String),
      last_seen_at: expect.any(String),
      status: 'active',
      login_type: 'none',
      organization_ids: [],
      roles: [{ name: 'owner', display_name: 'Owner' }],
    });
    expect((await call(a, member, 'GET', '/users/me')).body).toMatchObject({ id: member.user._id, roles: [] });
    expect((await call(a, member, 'GET', `/users/${owner.user.username}`)).status).toBe(403);
    expect((await call(a, null, 'GET', '/users/me')).status).toBe(401);
  });

  it('takes the session token of a watch from the platform_session_token cookie or query parameter', async () => {
    const user = await stack.addUser(deploymentId, 'member');
    const byQuery = new WebSocket(
      `${a.replace('http', 'ws')}/api/v2/notifications/inbox/watch?platform_session_token=${encodeURIComponent(user.token)}`,
    );
    const byCookie = new WebSocket(`${a.replace('http', 'ws')}/api/v2/notifications/inbox/watch`, {
      headers: { cookie: `platform_session_token=${encodeURIComponent(user.token)}` },
    });
    const frames: string[] = [];
    for (const socket of [byQuery, byCookie]) socket.on('message', (data) => frames.push(data.toString()));
    await Promise.all(
      [byQuery, byCookie].map(
        (socket) =>
          new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('unexpected-response', (_req, res) => reject(new Error(`watch answered ${res.statusCode}`)));
          }),
      ),
    );
    await streamsOpen(user, [2, 0]);
    await custom(user, 'To both');
    await waitFor(async () => frames.length === 2 || undefined, { what: 'a frame on each socket' });
    byQuery.close();
    byCookie.close();
    const refused = await call(
      a,
      null,
      'GET',
      '/notifications/inbox/watch?platform_session_token=ntf_nope',
      undefined,
      {
        accept: 'text/event-stream',
      },
    );
    expect(refused.status).toBe(401);
  });
});

describe("notifications from the platform's events", () => {
  it("notifies an OAuth client's owner of the review: the linked user's inbox and one e-mail, also when the event comes twice", async () => {
    const ownerId = uniqueName('schedu');
    const email = `${ownerId.toLowerCase()}@example.com`;
    const linked = await stack.members.create(deploymentId, {
      username: uniqueName('l')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
      role: 'member',
      email: 'elsewhere@example.com',
      links: [`scheduling-user:${ownerId}`],
    });
    const { key } = await stack.accounts.createKey(deploymentId, { subject: linked._id });
    const event = {
      topic: 'oauth.events',
      key: 'client-1',
      id: uniqueName('evt'),
      type: MessageTypeNames.ClientRejected,
      value: {
        client_id: `cl_${ownerId}`,
        owner_user_id: ownerId,
        owner_email: email,
        name: 'Booking Sync',
        reviewer_user_id: 'admin',
        reason: 'Purpose is too vague.',
        occurred_at: Date.now(),
      },
    } as const;
    await stack.publisher.publish(event);
    await stack.publisher.publish(event); // redelivered
    const user = { user: linked, token: key };
    const list = await waitForInbox(user, 1);
    const mail = await waitForMail(email, 'was rejected');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await inbox(user)).notifications).toHaveLength(1);
    expect(list.notifications[0]).toMatchObject({
      template_id: TEMPLATE_IDS.oauthClientRejected,
      title: 'Your OAuth client "Booking Sync" was rejected',
      icon: 'DEFAULT_ICON_ACCOUNT',
    });
    expect(await messagesTo(email)).toHaveLength(1);
    expect(await messageText(mail.ID)).toContain('Purpose is too vague.');
    expect(await messagesTo('elsewhere@example.com')).toEqual([]);
  });

  it('gives an owner nobody linked a user of the platform notices deployment', async () => {
    const ownerId = uniqueName('lonely');
    const email = `${ownerId.toLowerCase()}@example.com`;
    await stack.publisher.publish({
      topic: 'oauth.events',
      key: 'client-2',
      type: MessageTypeNames.ClientAccepted,
      value: {
        client_id: `cl_${ownerId}`,
        owner_user_id: ownerId,
        owner_email: email,
        name: 'Lonely App',
        reviewer_user_id: 'admin',
        occurred_at: Date.now(),
        reason: null,
      },
    });
    await waitForMail(email, 'was accepted');
    const [made] = await stack.members.linkedTo(`scheduling-user:${ownerId}`);
    expect(made).toMatchObject({ environment_id: PLATFORM_NOTICES_DEPLOYMENT, email });
  });

  it('notifies the users linked to an image account once, when the month crosses 80 % of its quota', async () => {
    const accountId = uniqueName('acct');
    const linked = await stack.members.create(deploymentId, {
      username: uniqueName('i')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, ''),
      role: 'member',
      links: [`images-account:${accountId}`],
    });
    const { key } = await stack.accounts.createKey(deploymentId, { subject: linked._id });
    const compressed = (count: number) =>
      stack.publisher.publish({
        topic: 'images.events',
        key: accountId,
        type: MessageTypeNames.ImageCompressed,
        value: {
          account_id: accountId,
          output_id: uniqueName('o'),
          operation: 'shrink',
          compressions: 1,
          month: '2026-11',
          month_count: count,
          monthly_quota: 10,
          input_type: 'image/png',
          input_size: 100,
          output_type: 'image/png',
          output_size: 50,
          occurred_at: Date.now(),
        },
      });
    for (const count of [6, 7, 8, 9, 10]) await compressed(count);
    const user = { user: linked, token: key };
    const list = await waitForInbox(user, 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await inbox(user)).notifications).toHaveLength(1);
    expect(list.notifications[0]).toMatchObject({
      template_id: TEMPLATE_IDS.imageQuotaNearlyUsed,
      title: 'Image compressions: 8 of 10 used this month',
    });
  });
});
