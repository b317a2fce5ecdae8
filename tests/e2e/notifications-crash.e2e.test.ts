import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { messagesTo } from '../support/mailbox.js';
import { TEST_SECRETS } from '../support/secrets.js';

const run = promisify(execFile);
const name = uniqueName('e2entf');
// A stable replica id: the restarted notifier takes its lanes back at once instead of waiting out the lease.
const env = isolatedAppEnv(name, {
  ...TEST_SECRETS,
  NOTIFIER_SWEEP_MS: '200',
  OUTBOX_INTERVAL_MS: '200',
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  REPLICA_ID: `${name}-notifier`,
});
const cliRun = (...args: string[]) =>
  run(process.execPath, ['apps/cli/dist/main.js', ...args], { env: { ...process.env, ...env } });
const cli = async (...args: string[]) => (await cliRun(...args)).stdout.trim();

const processes: ManagedProcess[] = [];
let base: string;
let notifier: ManagedProcess;

const startNotifier = () => startProcess('notifier', 'apps/notifier/dist/main.js', env);

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  notifier = startNotifier();
  processes.push(notifier);
  processes.push(
    startProcess('notifications-gateway', 'apps/notifications-gateway/dist/main.js', {
      ...env,
      PORT: String(port),
      COMMAND_TIMEOUT_MS: '60000',
    }),
  );
  await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok === true, {
    what: 'the gateway ready',
    timeoutMs: 60_000,
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
});

describe('notifications from the command line, and a notifier killed in a burst', () => {
  it('creates an owner and further users of the same deployment with the CLI, each token acting as its user', async () => {
    const created = await cliRun('keys', 'create', 'notifications');
    const owner = created.stdout.trim();
    expect(owner).toMatch(/^\S+$/);
    const deployment = /created \S+ in (\S+)/.exec(created.stderr)![1]!;
    const member = await cli('keys', 'create', 'notifications', '--environment', deployment, '--role', 'member');
    const system = await cli('keys', 'create', 'notifications', '--environment', deployment, '--role', 'system');
    const pause = (token: string) =>
      fetch(`${base}/api/v2/notifications/settings`, {
        method: 'PUT',
        headers: { 'platform-session-token': token, 'content-type': 'application/json' },
        body: '{"notifier_paused":true}',
      });
    expect((await pause(member)).status).toBe(403);
    const fromSystem = await fetch(`${base}/api/v2/notifications/custom`, {
      method: 'POST',
      headers: { 'platform-session-token': system, 'content-type': 'application/json' },
      body: '{"content":{"title":"beep"}}',
    });
    expect(fromSystem.status).toBe(403);
    const ownerSettings = await fetch(`${base}/api/v2/notifications/settings`, {
      method: 'PUT',
      headers: { 'platform-session-token': owner, 'content-type': 'application/json' },
      body: '{"notifier_paused":true}',
    });
    expect(ownerSettings.status).toBe(200);
    const me = await fetch(`${base}/api/v2/users/me/notifications/preferences`, {
      headers: { 'platform-session-token': owner },
    });
    expect(me.status).toBe(200);
    await fetch(`${base}/api/v2/notifications/settings`, {
      method: 'PUT',
      headers: { 'platform-session-token': owner, 'content-type': 'application/json' },
      body: '{"notifier_paused":false}',
    });
  });

  it('loses and duplicates nothing: every accepted notification reaches the inbox once and is e-mailed under one Message-ID', async () => {
    const email = `${name}@example.com`;
    const token = await cli('keys', 'create', 'notifications', '--email', email);
    const total = 40;
    let answered = 0;
    const sends = Array.from({ length: total }, async (_, i) => {
      const response = await fetch(`${base}/api/v2/notifications/custom`, {
        method: 'POST',
        headers: { 'platform-session-token': token, 'content-type': 'application/json' },
        body: JSON.stringify({ content: { title: `Burst ${i}`, message: 'one of many' } }),
      });
      answered += 1;
      return response.status;
    });
    await waitFor(() => answered >= 5, { what: 'the first answers', timeoutMs: 60_000 });
    notifier.child.kill('SIGKILL');
    await notifier.exit;
    notifier = startNotifier();
    processes.push(notifier);

    expect(await Promise.all(sends)).toEqual(Array(total).fill(204));
    const titles = Array.from({ length: total }, (_, i) => `Burst ${i}`);
    const inbox = await waitFor(
      async () => {
        const pages = [];
        let before = '';
        for (;;) {
          const r = await fetch(`${base}/api/v2/notifications/inbox${before}`, {
            headers: { 'platform-session-token': token },
          });
          const page = (await r.json()) as { notifications: Array<{ id: string; title: string }> };
          pages.push(...page.notifications);
          if (page.notifications.length < 25) break;
          before = `?starting_before=${page.notifications.at(-1)!.id}`;
        }
        return pages.length >= total ? pages : undefined;
      },
      { timeoutMs: 60_000, what: `${total} notifications in the inbox` },
    );
    expect(inbox.map((n) => n.title).sort()).toEqual([...titles].sort());
    // The unread count is exact through the kill (a change of it cut off there is counted from the inbox), and after.
    const headers = { 'platform-session-token': token };
    const unread = async () =>
      ((await (await fetch(`${base}/api/v2/notifications/inbox`, { headers })).json()) as { unread_count: number })
        .unread_count;
    expect(await unread()).toBe(total);
    expect(
      (await fetch(`${base}/api/v2/notifications/inbox/mark-all-as-read`, { method: 'PUT', headers })).status,
    ).toBe(204);
    expect(await unread()).toBe(0);

    const mails = await waitFor(
      async () => {
        const found = await messagesTo(email);
        return new Set(found.map((m) => m.Subject)).size >= total ? found : undefined;
      },
      { timeoutMs: 60_000, what: `${total} e-mails` },
    );
    expect([...new Set(mails.map((m) => m.Subject))].sort()).toEqual([...titles].sort());
    // One Message-ID per notification; a copy can only come from the message being sent at the moment of the kill.
    expect(new Set(mails.map((m) => m.MessageID)).size).toBe(total);
    expect(mails.length - total).toBeLessThanOrEqual(1);
  }, 180_000);
});
