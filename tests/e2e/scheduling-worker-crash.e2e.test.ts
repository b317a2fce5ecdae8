import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createAccessTokens } from '@platform/oauth';
import {
  freePort,
  isolatedAppEnv,
  resolveInfra,
  startProcess,
  uniqueName,
  waitFor,
  type ManagedProcess,
} from '@platform/testing';
import { TEST_OAUTH_SECRETS, TEST_SECRETS } from '../support/secrets.js';

// scheduling-gateway and scheduling-worker as real processes; the worker is SIGKILLed in the middle of a burst.
const run = promisify(execFile);
const name = uniqueName('e2esched');
const env = isolatedAppEnv(name, { ...TEST_SECRETS, ...TEST_OAUTH_SECRETS });
const workerEnv = { ...env, KAFKA_SESSION_TIMEOUT_MS: '6000', OUTBOX_INTERVAL_MS: '200' };
const processes: ManagedProcess[] = [];
let api: string;
let mongo: MongoConnection;
let token: string;
let userId: string;

beforeAll(async () => {
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  processes.push(startProcess('scheduling-worker', 'apps/scheduling-worker/dist/main.js', workerEnv));
  processes.push(
    startProcess('scheduling-gateway', 'apps/scheduling-gateway/dist/main.js', {
      ...env,
      PORT: String(port),
      COMMAND_TIMEOUT_MS: '60000',
    }),
  );
  await waitFor(async () => (await fetch(`${api}/readyz`).catch(() => undefined))?.ok === true, {
    what: 'gateway ready',
    timeoutMs: 60_000,
  });
  const created = run(
    process.execPath,
    ['apps/cli/dist/main.js', 'users', 'create', '--email', `host-${name}@example.com`, '--name', 'Host'],
    { env: { ...process.env, ...env } },
  );
  created.child.stdin?.end('a long enough password\n');
  userId = (await created).stdout.trim();
  token = createAccessTokens({ keys: [TEST_OAUTH_SECRETS.OAUTH_ACCESS_TOKEN_KEYS] }).issue({
    sub: userId,
    cid: 'cal_client_e2e',
    gid: 'grt_e2e',
    scp: ['EVENT_TYPE_WRITE', 'SCHEDULE_WRITE', 'BOOKING_READ'],
    legacy: false,
  }).token;
  mongo = await connectMongo({ url: resolveInfra().mongoUrl, dbName: name, appName: 'e2e' });
}, 120_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

async function call(method: string, path: string, body?: unknown, bearer: string | null = token) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> } };
}

describe('scheduling worker crash', () => {
  it('completes every booking of a burst when the worker is killed and another takes over, each made once', async () => {
    expect(
      (
        await call('POST', '/v2/schedules', {
          name: 'All week',
          timeZone: 'UTC',
          availability: [
            {
              days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
              startTime: '00:00',
              endTime: '24:00',
            },
          ],
        })
      ).status,
    ).toBe(201);
    const eventType = await call('POST', '/v2/event-types', { title: 'Slot', lengthInMinutes: 30 });
    expect(eventType.status).toBe(201);
    const base = Date.UTC(new Date().getUTCFullYear() + 1, 0, 5, 8);
    const total = 24;
    let answered = 0;
    const bookings = Array.from({ length: total }, async (_, i) => {
      const answer = await call(
        'POST',
        '/v2/bookings',
        {
          start: new Date(base + i * 30 * 60_000).toISOString(),
          eventTypeId: eventType.body.data['id'],
          attendee: { name: `G${i}`, email: `g${i}@example.com`, timeZone: 'UTC' },
        },
        null,
      );
      answered += 1;
      return answer;
    });
    await waitFor(() => answered >= 2, { what: 'the first bookings', timeoutMs: 60_000 });
    processes[0]!.child.kill('SIGKILL');
    await processes[0]!.exit;
    processes.push(startProcess('scheduling-worker-2', 'apps/scheduling-worker/dist/main.js', workerEnv));

    const answers = await Promise.all(bookings);
    expect(answers.map((a) => a.status)).toEqual(Array(total).fill(201));
    const uids = new Set(answers.map((a) => a.body.data['uid']));
    expect(uids.size).toBe(total);
    expect(await mongo.collection('sched_bookings').countDocuments({})).toBe(total);
    const calendar = await mongo.collection('sched_host_calendars').findOne({ _id: userId as never });
    expect((calendar?.['busy'] as unknown[]).length).toBe(total);
    const listed = await call('GET', '/v2/bookings');
    expect((listed.body.data as unknown as unknown[]).length).toBe(total);
  }, 180_000);
});
