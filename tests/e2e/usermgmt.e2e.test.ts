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

// The apps as real processes (their built dist/), a key from the real CLI, and real HTTP clients.
const run = promisify(execFile);
const infra = resolveInfra();
const name = uniqueName('e2e');
const env = isolatedAppEnv(name, { KAFKA_SESSION_TIMEOUT_MS: '8000', ...TEST_SECRETS });

let port: number;
let workerHealthPort: number;
let base: string;
const processes: ManagedProcess[] = [];
let worker: ManagedProcess;
let receiver: WebhookReceiver;
let mongo: MongoConnection;
let key: string;

function startWorker() {
  const p = startProcess('usermgmt-worker', 'apps/usermgmt-worker/dist/main.js', {
    ...env,
    HEALTH_PORT: String(workerHealthPort),
  });
  processes.push(p);
  return p;
}

const crashed = () =>
  processes.filter((p) => p.exited() && p !== worker).map((p) => `${p.name} exited:\n${p.output().slice(-2000)}`)[0];

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

beforeAll(async () => {
  port = await freePort();
  workerHealthPort = await freePort();
  base = `http://127.0.0.1:${port}`;
  receiver = await startWebhookReceiver();
  worker = startWorker();
  processes.push(
    startProcess('webhook-dispatcher', 'apps/webhook-dispatcher/dist/main.js', {
      ...env,
      EGRESS_ALLOW: '127.0.0.0/8',
      WEBHOOK_RETRY_SCALE: '0.001',
    }),
  );
  processes.push(
    startProcess('usermgmt-gateway', 'apps/usermgmt-gateway/dist/main.js', {
      ...env,
      PORT: String(port),
      COMMAND_TIMEOUT_MS: '20000',
    }),
  );
  await waitFor(async () => (await fetch(`${base}/readyz`)).ok, {
    what: 'gateway ready',
    timeoutMs: 60_000,
    failFast: crashed,
  });
  const { stdout } = await run(process.execPath, ['apps/cli/dist/main.js', 'keys', 'create', 'usermgmt'], {
    env: { ...process.env, ...env },
  });
  key = stdout.trim();
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: 'e2e' });
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await receiver?.close();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe('user management, end to end', () => {
  it('prints a key alone on stdout from the CLI', () => {
    expect(key).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
  });

  it('delivers a signed user.created to a registered endpoint', async () => {
    const endpoint = await api('POST', '/webhook_endpoints', { endpoint_url: receiver.url, events: ['user.created'] });
    expect(endpoint.status).toBe(201);
    const user = await api('POST', '/user_management/users', { email: 'e2e@example.com', first_name: 'E2E' });
    expect(user.status).toBe(201);
    const request = await waitFor(() => receiver.requests.find((r) => r.body.includes(user.body?.['id'] as string)), {
      what: 'webhook',
      failFast: crashed,
    });
    expect(
      verifyWorkosSignature(
        request.headers['workos-signature'] as string,
        request.body,
        endpoint.body?.['secret'] as string,
      ),
    ).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({
      event: 'user.created',
      data: { id: user.body?.['id'], email: 'e2e@example.com' },
    });
  });

  it('exposes probes and Prometheus metrics on the gateway and the worker', async () => {
    const gateway = await (await fetch(`${base}/metrics`)).text();
    expect(gateway).toMatch(/^http_server_request_duration_count\{/m);
    const worker = `http://127.0.0.1:${workerHealthPort}`;
    expect((await fetch(`${worker}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${worker}/readyz`)).json()).toEqual({
      status: 'ready',
      checks: { mongo: 'ok', redis: 'ok' },
    });
    const metrics = await (await fetch(`${worker}/metrics`)).text();
    expect(metrics).toMatch(/^platform_messaging_processed_total\{.*outcome="ok".*\} [1-9]/m);
  });

  it('refuses to start with a bad configuration, naming every bad variable', async () => {
    const bad = startProcess('usermgmt-gateway', 'apps/usermgmt-gateway/dist/main.js', {
      ...env,
      PORT: 'eighty',
      API_KEY_PEPPER: '',
      MONGO_URL: 'postgres://nope',
    });
    const code = await bad.exit;
    expect(code).toBe(78);
    expect(bad.output()).toContain('PORT is invalid');
    expect(bad.output()).toContain('API_KEY_PEPPER is required');
    expect(bad.output()).toContain('MONGO_URL is invalid');
  });

  it('loses no command when the worker is killed with SIGKILL mid-flight', async () => {
    const count = 30;
    const emails = Array.from({ length: count }, (_, i) => `kill-${i}@example.com`);
    // Idempotency keys let a client safely retry a request whose reply missed its deadline.
    const create = (email: string) =>
      api('POST', '/user_management/users', { email }, { 'idempotency-key': `kill-${email}` });
    const inFlight = emails.map((email, i) => new Promise((r) => setTimeout(r, i * 15)).then(() => create(email)));
    await new Promise((r) => setTimeout(r, 150));
    worker.child.kill('SIGKILL');
    await worker.kill();
    worker = startWorker();
    const first = await Promise.all(inFlight);
    for (const r of first) expect([201, 504]).toContain(r.status);
    const results = await Promise.all(
      emails.map(async (email, i) =>
        first[i]!.status === 201
          ? first[i]!
          : waitFor(
              async () => {
                const retry = await create(email);
                return retry.status === 201 ? retry : undefined;
              },
              { what: `retry of ${email}`, timeoutMs: 60_000, intervalMs: 500 },
            ),
      ),
    );
    const ids = results.map((r) => r.body?.['id'] as string);
    expect(new Set(ids).size).toBe(count);
    const stored = await mongo
      .db!.collection('usermgmt_users')
      .find({ email: { $in: emails } })
      .toArray();
    expect(stored.map((u) => u['email']).sort()).toEqual([...emails].sort());
    expect(stored.map((u) => u['_id']).sort()).toEqual([...ids].sort());
    // Every created user produced its event (the outbox survives the crash).
    await waitFor(
      async () => {
        const pending = await mongo
          .db!.collection('usermgmt_users')
          .countDocuments({ email: { $in: emails }, has_outbox: true });
        return pending === 0;
      },
      { what: 'outbox drained', timeoutMs: 30_000 },
    );
  }, 120_000);
});
