import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import {
  freePort,
  isolatedAppEnv,
  resolveInfra,
  startProcess,
  startWebhookReceiver,
  uniqueName,
  waitFor,
  type ManagedProcess,
  type WebhookReceiver,
} from '@platform/testing';
import { verifyWorkosSignature } from '@platform/webhooks';
import { TEST_SECRETS } from '../support/secrets.js';

const run = promisify(execFile);
const infra = resolveInfra();
const name = uniqueName('e2ewh');
const env = isolatedAppEnv(name, { KAFKA_SESSION_TIMEOUT_MS: '8000', ...TEST_SECRETS });
// A short lease so that a second dispatcher may take over a claimed delivery within seconds.
const dispatcherEnv = {
  ...env,
  EGRESS_ALLOW: '127.0.0.0/8',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_LEASE_GRACE_MS: '500',
  WEBHOOK_RETRY_SCALE: '0.001',
};

const processes: ManagedProcess[] = [];
let receiver: WebhookReceiver;
let mongo: MongoConnection;
let base: string;
let key: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  receiver = await startWebhookReceiver();
  processes.push(startProcess('usermgmt-worker', 'apps/usermgmt-worker/dist/main.js', env));
  processes.push(
    startProcess('usermgmt-gateway', 'apps/usermgmt-gateway/dist/main.js', { ...env, PORT: String(port) }),
  );
  await waitFor(async () => (await fetch(`${base}/readyz`)).ok, { what: 'gateway ready', timeoutMs: 60_000 });
  key = (
    await run(process.execPath, ['apps/cli/dist/main.js', 'keys', 'create', 'usermgmt'], {
      env: { ...process.env, ...env },
    })
  ).stdout.trim();
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: 'e2e' });
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await receiver?.close();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('webhook dispatcher crash', () => {
  it('redelivers with the same event id after a dispatcher is killed mid-attempt', async () => {
    receiver.respondWith((_req, index) => ({ status: 200, delayMs: index === 0 ? 2500 : 0 }));
    const first = startProcess('webhook-dispatcher', 'apps/webhook-dispatcher/dist/main.js', dispatcherEnv);
    processes.push(first);
    const endpoint = await api('POST', '/webhook_endpoints', { endpoint_url: receiver.url, events: ['user.created'] });
    const user = await api('POST', '/user_management/users', { email: 'crash@example.com' });
    expect(user.status).toBe(201);

    await waitFor(() => receiver.requests.length === 1, { what: 'first attempt under way', timeoutMs: 30_000 });
    first.child.kill('SIGKILL');
    await first.kill();
    processes.push(startProcess('webhook-dispatcher', 'apps/webhook-dispatcher/dist/main.js', dispatcherEnv));

    await waitFor(() => receiver.requests.length >= 2, {
      what: 'redelivery by the second dispatcher',
      timeoutMs: 40_000,
    });
    const [a, b] = receiver.requests;
    expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
    expect(JSON.parse(b!.body)).toMatchObject({ event: 'user.created', data: { id: user.body['id'] } });
    expect(
      verifyWorkosSignature(b!.headers['workos-signature'] as string, b!.body, endpoint.body['secret'] as string),
    ).toBe(true);
    const delivered = await waitFor(
      async () => {
        const log = await api('GET', `/webhook_endpoints/${endpoint.body['id'] as string}/deliveries`);
        const data = log.body['data'] as Array<{ status_code: number | null }>;
        return data.some((d) => d.status_code === 200) ? data : undefined;
      },
      { what: 'successful attempt in the log' },
    );
    expect(delivered.length).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
