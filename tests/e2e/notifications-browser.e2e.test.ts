import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { launchChromium } from '../support/browser.js';
import { TEST_SECRETS } from '../support/secrets.js';

// The notifier and the gateway as real processes, and a page in Debian's Chromium that watches its inbox the
// only ways a browser can: an `EventSource` and a `WebSocket`, neither of which can set a header.
const run = promisify(execFile);
const name = uniqueName('e2entfb');
const env = isolatedAppEnv(name, {
  ...TEST_SECRETS,
  NOTIFIER_SWEEP_MS: '200',
  OUTBOX_INTERVAL_MS: '200',
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  LOG_LEVEL: 'info',
});
const processes: ManagedProcess[] = [];
let gateway: ManagedProcess;
let base: string;
let browser: Browser;
let token: string;

/**
 * Runs in the page: `watch(kind, url)` opens an EventSource or a WebSocket, resolves once it is open (the
 * gateway holds the stream by then: it subscribes before it answers), and keeps every notification's title.
 */
const WATCHER = `
window.titles = [];
window.watch = (kind, url) => new Promise((resolve, reject) => {
  const keep = (data) => window.titles.push(JSON.parse(data).notification.title);
  if (kind === 'sse') {
    const source = new EventSource(url);
    window.stream = source;
    source.addEventListener('notification', (event) => keep(event.data));
    source.onopen = () => resolve('open');
    source.onerror = () => { source.close(); reject(new Error('the event stream failed')); };
  } else {
    const socket = new WebSocket(url);
    window.stream = socket;
    socket.onmessage = (event) => keep(event.data);
    socket.onopen = () => resolve('open');
    socket.onerror = () => reject(new Error('the WebSocket failed'));
  }
});
`;

const crashed = () =>
  processes.filter((p) => p.exited()).map((p) => `${p.name} exited:\n${p.output().slice(-2000)}`)[0];

async function send(title: string) {
  const response = await fetch(`${base}/api/v2/notifications/custom`, {
    method: 'POST',
    headers: { 'platform-session-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ content: { title, message: 'to the browser' } }),
  });
  expect(response.status).toBe(204);
}

/** A page of the gateway's own origin (as a web app served beside the API would be), with the watcher loaded. */
async function pageOf(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/healthz`);
  await page.evaluate(WATCHER);
  return page;
}

async function receives(page: Page, kind: 'sse' | 'ws', url: string) {
  expect(await page.evaluate(`watch(${JSON.stringify(kind)}, ${JSON.stringify(url)})`)).toBe('open');
  const title = `${kind} ${uniqueName('n')}`;
  await send(title);
  await waitFor(async () => ((await page.evaluate('window.titles')) as string[]).includes(title) || undefined, {
    what: `"${title}" in the page`,
    timeoutMs: 30_000,
    failFast: crashed,
  });
  await page.evaluate('window.stream.close()');
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  processes.push(startProcess('notifier', 'apps/notifier/dist/main.js', env));
  gateway = startProcess('notifications-gateway', 'apps/notifications-gateway/dist/main.js', {
    ...env,
    PORT: String(port),
  });
  processes.push(gateway);
  await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok === true, {
    what: 'the gateway ready',
    timeoutMs: 60_000,
    failFast: crashed,
  });
  const created = await run(process.execPath, ['apps/cli/dist/main.js', 'keys', 'create', 'notifications'], {
    env: { ...process.env, ...env },
  });
  token = created.stdout.trim();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
});

describe('a browser watches its inbox', () => {
  const watchPath = '/api/v2/notifications/inbox/watch';
  const byQuery = () => `${watchPath}?platform_session_token=${encodeURIComponent(token)}`;
  const ws = (path: string) => `${base.replace('http', 'ws')}${path}`;

  it("receives a notification on a page's EventSource and WebSocket, the token in the query", async () => {
    const context = await browser.newContext();
    const page = await pageOf(context);
    await receives(page, 'sse', byQuery());
    await receives(page, 'ws', ws(byQuery()));
    await context.close();
  });

  it("receives a notification on a page's EventSource and WebSocket, the token in the platform_session_token cookie", async () => {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'platform_session_token', value: token, url: base, httpOnly: true }]);
    const page = await pageOf(context);
    await receives(page, 'sse', watchPath);
    await receives(page, 'ws', ws(watchPath));
    await context.close();
  });

  it('is refused without a token, and never writes the token of a query to its log', async () => {
    const context = await browser.newContext();
    const page = await pageOf(context);
    await expect(page.evaluate(`watch('sse', ${JSON.stringify(watchPath)})`)).rejects.toThrow(
      'the event stream failed',
    );
    await expect(page.evaluate(`watch('ws', ${JSON.stringify(ws(watchPath))})`)).rejects.toThrow(
      'the WebSocket failed',
    );
    await context.close();
    const log = gateway.output();
    expect(log).toContain('platform_session_token=REDACTED');
    expect(log).not.toContain(token);
  });
});
