import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestImage } from '@platform/images/testing';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { TEST_SECRETS } from '../support/secrets.js';

const run = promisify(execFile);
const name = uniqueName('e2eimg');
const env = isolatedAppEnv(name, { ...TEST_SECRETS });
const workerEnv = (healthPort: number) => ({
  ...env,
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  HEALTH_PORT: String(healthPort),
  PARTITIONS_CONCURRENCY: '2',
});

const processes: ManagedProcess[] = [];
let base: string;
let auth: string;
let workers: ManagedProcess[];

beforeAll(async () => {
  const [port, health1, health2] = await Promise.all([freePort(), freePort(), freePort()]);
  base = `http://127.0.0.1:${port}`;
  workers = [
    startProcess('image-worker-1', 'apps/image-worker/dist/main.js', workerEnv(health1)),
    startProcess('image-worker-2', 'apps/image-worker/dist/main.js', workerEnv(health2)),
  ];
  processes.push(...workers);
  processes.push(
    startProcess('images-gateway', 'apps/images-gateway/dist/main.js', {
      ...env,
      PORT: String(port),
      PUBLIC_BASE_URL: base,
    }),
  );
  for (const url of [`${base}/readyz`, `http://127.0.0.1:${health1}/readyz`, `http://127.0.0.1:${health2}/readyz`]) {
    await waitFor(async () => (await fetch(url).catch(() => undefined))?.ok === true, {
      what: `${url} ready`,
      timeoutMs: 60_000,
    });
  }
  const key = (
    await run(process.execPath, ['apps/cli/dist/main.js', 'keys', 'create', 'images'], {
      env: { ...process.env, ...env },
    })
  ).stdout.trim();
  auth = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
});

describe('image worker crash', () => {
  it('completes every request of a batch when one of two workers is killed, and counts each once', async () => {
    const image = await buildTestImage({ photo: true, width: 1000, height: 800 });
    const total = 24;
    let answered = 0;
    const requests = Array.from({ length: total }, async () => {
      const response = await fetch(`${base}/shrink`, { method: 'POST', headers: { authorization: auth }, body: image });
      answered += 1;
      return {
        status: response.status,
        count: Number(response.headers.get('compression-count')),
        location: response.headers.get('location'),
      };
    });
    await waitFor(() => answered >= 3, { what: 'the first answers', timeoutMs: 60_000 });
    const pendingAtKill = total - answered;
    workers[0]!.child.kill('SIGKILL');
    await workers[0]!.exit;
    expect(pendingAtKill).toBeGreaterThan(0);

    const answers = await Promise.all(requests);
    expect(answers.map((a) => a.status)).toEqual(Array(total).fill(201));
    // Each upload counted once, whatever was redone: the month ends at exactly `total`. (A request redone after
    // the crash answers with the count at the time of its reply, so the counts seen need not be 1..total.)
    const counts = answers.map((a) => a.count);
    expect(counts.every((c) => c >= 1 && c <= total)).toBe(true);
    expect(Math.max(...counts)).toBe(total);
    const last = await fetch(answers[0]!.location!, { headers: { authorization: auth } });
    expect(last.status).toBe(200);
    expect(last.headers.get('compression-count')).toBe(String(total));
    expect(new Set(answers.map((a) => a.location)).size).toBe(total);
  }, 180_000);
});
