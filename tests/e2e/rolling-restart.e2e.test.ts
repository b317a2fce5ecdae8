import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames, decodeMessage } from '@platform/contracts';
import { createKafka, readHeaders, type KafkaClient } from '@platform/kafka';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createLogger } from '@platform/telemetry';
import {
  freePort,
  isolatedAppEnv,
  startProcess,
  startWebhookReceiver,
  uniqueName,
  waitFor,
  type ManagedProcess,
  type WebhookReceiver,
} from '@platform/testing';
import { startBalancer, type Balancer } from '../support/balancer.js';
import { rawConnection, type RawAnswer, type RawConnection } from '../support/raw-http.js';
import { TEST_SECRETS } from '../support/secrets.js';

// A rolling update of every kind of process while users keep working: each gateway, worker, the redirector,
// the analytics aggregator and the webhook dispatcher is replaced in turn, as a Deployment with maxSurge 1 and
// maxUnavailable 0 does it: the new replica starts and passes its readiness probe, the old one leaves the
// Service's endpoints and gets SIGTERM. What users see: every request answered in full (requests already
// inside a draining gateway included), every link and user created exactly once, one event per change, every
// click counted exactly once, every webhook delivered once.

const run = promisify(execFile);
const name = uniqueName('e2eroll');
const DOMAIN = 'sho.rt';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
/** Requests held open inside each gateway while it is told to stop (their bodies arrive after SIGTERM). */
const HELD = 3;
const env = isolatedAppEnv(name, {
  ...TEST_SECRETS,
  LINKS_DEFAULT_DOMAIN: DOMAIN,
  OUTBOX_INTERVAL_MS: '200',
  KAFKA_SESSION_TIMEOUT_MS: '6000',
  COMMAND_TIMEOUT_MS: '30000',
  SHUTDOWN_TIMEOUT_MS: '25000',
  EGRESS_ALLOW: '127.0.0.0/8',
  WEBHOOK_TIMEOUT_MS: '3000',
  WEBHOOK_POLL_INTERVAL_MS: '25',
  WEBHOOK_RETRY_SCALE: '0.001',
});

interface Replica {
  process: ManagedProcess;
  /** The API's address (gateways, redirector) or the probe server's (workers). */
  url: string;
  port: number;
}

interface Role {
  app: string;
  /** The balancer in front of the role's replicas; workers have none. */
  balancer?: Balancer;
  /** A request that takes a while inside this gateway: its body is sent in two halves. */
  held?: (requestId: string) => { path: string; headers: Record<string, string>; body: string };
  /** Whether users' requests are waiting on this worker's commands: it is told to stop in the middle of them. */
  busy?: () => boolean;
  current?: Replica;
}

const all: ManagedProcess[] = [];
let generation = 0;

async function startReplica(role: Role): Promise<Replica> {
  const port = await freePort();
  const replicaId = `${name}-${role.app}-${generation++}`;
  const process = startProcess(role.app, `apps/${role.app}/dist/main.js`, {
    ...env,
    REPLICA_ID: replicaId,
    ...(role.balancer ? { PORT: String(port) } : { HEALTH_PORT: String(port) }),
    ...(role.app === 'redirector' ? { CLICK_SPOOL_DIR: mkdtempSync(path.join(tmpdir(), `${replicaId}-spool-`)) } : {}),
  });
  all.push(process);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok === true, {
    what: `${role.app} ready`,
    // Under the roll's load on two cores every replica takes 30-60 s to be ready (imports, Kafka joins): room.
    timeoutMs: 120_000,
    intervalMs: 100,
    failFast: () => (process.exited() ? process.output().slice(-3000) : undefined),
  });
  return { process, url, port };
}

const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** A POST whose headers go now and whose body's second half goes when `finish` is called. */
function heldRequest(client: Pool, request: { path: string; headers: Record<string, string>; body: string }) {
  const bytes = Buffer.from(request.body);
  const body = new PassThrough();
  body.write(bytes.subarray(0, 5));
  const answer = client
    .request({
      method: 'POST',
      path: request.path,
      headers: { ...request.headers, 'content-type': 'application/json', 'content-length': String(bytes.length) },
      body,
    })
    .then(async (r) => ({ status: r.statusCode, body: await r.body.text() }))
    .catch((error: Error) => ({ status: 0, body: error.message }));
  return { answer, finish: () => body.end(bytes.subarray(5)) };
}

interface Restart {
  app: string;
  exitCode: number | null;
  /** Requests the old gateway was serving when it got SIGTERM (through the balancer), and what they got. */
  held: Array<{ status: number; body: string }>;
  /**
   * A client's own keep-alive connections straight to the old replica (an L4 Service keeps a connection on its
   * pod): how the idle one was ended, and the answer to the request that was inside on the other.
   */
  direct?: { idle: { ending: string; extraBytes: number }; answer: RawAnswer | undefined; ending: string };
  /** From the surge to SIGTERM (the replacement's start, the held requests), and from SIGTERM to the exit. */
  readyMs: number;
  drainMs: number;
}

/** A request whose headers the server has read (it said 100 Continue) and whose body has not been sent. */
async function heldDirect(port: number, request: { path: string; headers: Record<string, string>; body: string }) {
  const body = Buffer.from(request.body);
  const connection = await rawConnection(port);
  const headers = Object.entries({
    ...request.headers,
    host: '127.0.0.1',
    'content-type': 'application/json',
    'content-length': String(body.length),
    expect: '100-continue',
  });
  connection.write(`POST ${request.path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`);
  await waitFor(() => connection.received().startsWith('HTTP/1.1 100 Continue\r\n'), {
    what: 'the server reading the held request',
  });
  return { connection, finish: () => connection.write(body) };
}

/** A keep-alive connection that has had one answer and sits idle. */
async function idleConnection(port: number): Promise<RawConnection> {
  const connection = await rawConnection(port);
  connection.write('GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  await waitFor(() => connection.answer()?.status === 200, { what: 'an answer on the idle connection' });
  return connection;
}

/** One step of the rolling update: surge a replacement, move the traffic, SIGTERM the old replica, await its exit. */
async function roll(role: Role, heldClient: Pool): Promise<Restart> {
  const began = Date.now();
  const old = role.current!;
  const next = await startReplica(role);
  const held: Array<ReturnType<typeof heldRequest>> = [];
  let idle: RawConnection | undefined;
  let idleBytes = 0;
  let direct: Awaited<ReturnType<typeof heldDirect>> | undefined;
  if (role.balancer) {
    idle = await idleConnection(old.port);
    idleBytes = idle.received().length;
    if (role.held) direct = await heldDirect(old.port, role.held(`held-${randomUUID()}`));
    // Requests that are inside the old gateway when it is told to stop: sent while it is the only replica in
    // rotation, their bodies still arriving.
    const ids = Array.from({ length: role.held ? HELD : 0 }, () => `held-${randomUUID()}`);
    for (const id of ids) held.push(heldRequest(heldClient, role.held!(id)));
    await waitFor(() => ids.every((id) => role.balancer!.routed.get(id) === old.url), {
      what: `held requests inside the old ${role.app}`,
    });
    role.balancer.add(next.url);
    role.balancer.remove(old.url);
    // The preStop hook's sleep (k8s/, 3 s there) lets requests already on their way to the old replica arrive
    // before SIGTERM; here the balancer knows when they have: only the held requests are left.
    await waitFor(() => role.balancer!.inFlight(old.url) === held.length, {
      what: `the old ${role.app} left with only the held requests`,
      timeoutMs: 30_000,
    });
  }
  if (role.busy)
    await waitFor(role.busy, { what: `commands under way for the old ${role.app}`, intervalMs: 1, timeoutMs: 30_000 });
  old.process.child.kill('SIGTERM');
  if (held.length > 0) {
    // The old gateway has closed its listener (it is draining) while these requests are still being sent.
    await waitFor(async () => !(await accepting(old.port)), {
      what: `the old ${role.app} draining`,
      timeoutMs: 10_000,
    });
    for (const h of held) h.finish();
    direct?.finish();
  }
  const terminatedAt = Date.now();
  const exitCode = await old.process.exit;
  // Both connections end with the process at the latest; how they ended is what the client saw.
  await waitFor(() => [idle, direct?.connection].every((c) => c === undefined || c.ending() !== 'open'), {
    what: `the direct connections to the old ${role.app} ended`,
  });
  const report = idle && {
    idle: { ending: idle.ending(), extraBytes: idle.received().length - idleBytes },
    answer: direct?.connection.answer(),
    ending: direct?.connection.ending() ?? 'none',
  };
  idle?.destroy();
  direct?.connection.destroy();
  const drainMs = Date.now() - terminatedAt;
  role.current = next;
  return {
    app: role.app,
    exitCode,
    held: await Promise.all(held.map((h) => h.answer)),
    ...(report ? { direct: report } : {}),
    readyMs: terminatedAt - began,
    drainMs,
  };
}

const links: Role = {
  app: 'links-gateway',
  held: (id) => ({
    path: '/v4/shorten',
    headers: { authorization: `Bearer ${linksToken}`, 'x-request-id': id },
    body: JSON.stringify({ long_url: `https://example.com/held/${id}` }),
  }),
};
const usermgmt: Role = {
  app: 'usermgmt-gateway',
  held: (id) => ({
    path: '/user_management/users',
    headers: { authorization: `Bearer ${usermgmtKey}`, 'x-request-id': id, 'idempotency-key': id },
    body: JSON.stringify({ email: `${id}@example.com` }),
  }),
};
const redirector: Role = { app: 'redirector' };
const workers: Record<string, Role> = Object.fromEntries(
  ['links-worker', 'usermgmt-worker', 'analytics-aggregator', 'webhook-dispatcher'].map((app) => [app, { app }]),
);
workers['links-worker']!.busy = () => links.balancer!.inFlight(links.current!.url) > 0;
workers['usermgmt-worker']!.busy = () => usermgmt.balancer!.inFlight(usermgmt.current!.url) > 0;

let linksToken: string;
let usermgmtKey: string;
let receiver: WebhookReceiver;
let mongo: MongoConnection;
let kafka: KafkaClient;
const balancers: Balancer[] = [];
const clients: Pool[] = [];

beforeAll(async () => {
  for (const role of [links, usermgmt, redirector]) {
    role.balancer = await startBalancer();
    balancers.push(role.balancer);
  }
  receiver = await startWebhookReceiver();
  // Deliveries take a moment, so that some are under way whenever the dispatcher is told to stop.
  receiver.respondWith((_req, index) => ({ status: 200, delayMs: 50 + (index % 4) * 50 }));
  const roles = [...Object.values(workers), links, usermgmt, redirector];
  await Promise.all(
    roles.map(async (role) => {
      role.current = await startReplica(role);
      role.balancer?.add(role.current.url);
    }),
  );
  const cli = async (...args: string[]) =>
    (
      await run(process.execPath, ['apps/cli/dist/main.js', ...args], { env: { ...process.env, ...env } })
    ).stdout.trim();
  [linksToken, usermgmtKey] = await Promise.all([cli('keys', 'create', 'links'), cli('keys', 'create', 'usermgmt')]);
  mongo = await connectMongo({ url: env['MONGO_URL']!, dbName: name, appName: name });
  kafka = createKafka({
    brokers: env['KAFKA_BROKERS']!.split(','),
    clientId: `${name}-reader`,
    topicPrefix: env['KAFKA_TOPIC_PREFIX']!,
    logger: createLogger({ name, level: 'warn' }),
  });
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(all.map((p) => p.kill('SIGTERM')));
  await Promise.all(balancers.map((b) => b.close()));
  await receiver?.close();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

/** What the users sent and got while the processes were being replaced. */
interface Load {
  links: Map<string, string>; // link id -> long URL
  users: Map<string, string>; // user id -> e-mail
  clicks: Map<string, number>; // link id -> redirects answered
  markers: Set<string>; // one user agent per answered redirect
  failures: string[];
  stop(): Promise<void>;
}

function startLoad(): Load {
  const api = new Pool(links.balancer!.url, { connections: 8 });
  const um = new Pool(usermgmt.balancer!.url, { connections: 8 });
  const short = new Pool(redirector.balancer!.url, { connections: 8 });
  clients.push(api, um, short);
  const load: Load = {
    links: new Map(),
    users: new Map(),
    clicks: new Map(),
    markers: new Set(),
    failures: [],
    stop: async () => undefined,
  };
  const linkIds: string[] = [];
  let stopping = false;
  let n = 0;
  const loop = (pauseMs: number, step: (i: number) => Promise<void>) =>
    (async () => {
      while (!stopping) {
        const i = n++;
        try {
          await step(i);
        } catch (error) {
          load.failures.push(`${i}: ${(error as Error).message}`);
        }
        await sleep(pauseMs);
      }
    })();

  const shorten = async (i: number) => {
    const longUrl = `https://example.com/rolling/${i}`;
    const r = await api.request({
      method: 'POST',
      path: '/v4/shorten',
      headers: { authorization: `Bearer ${linksToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ long_url: longUrl }),
    });
    const body = await r.body.text();
    if (r.statusCode !== 201) throw new Error(`shorten: ${r.statusCode} ${body}`);
    const id = (JSON.parse(body) as { id: string }).id;
    load.links.set(id, longUrl);
    linkIds.push(id);
  };
  const redirect = async (i: number) => {
    if (linkIds.length === 0) return;
    const id = linkIds[i % linkIds.length]!;
    const marker = `${FIREFOX} rolling/${i}`;
    const r = await short.request({
      method: 'GET',
      path: `/${id.split('/')[1]}`,
      headers: { host: DOMAIN, 'user-agent': marker },
    });
    await r.body.dump();
    if (r.statusCode !== 301) throw new Error(`redirect: ${r.statusCode}`);
    load.clicks.set(id, (load.clicks.get(id) ?? 0) + 1);
    load.markers.add(marker);
  };
  const createUser = async (i: number) => {
    const email = `rolling${i}@example.com`;
    const r = await um.request({
      method: 'POST',
      path: '/user_management/users',
      headers: {
        authorization: `Bearer ${usermgmtKey}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({ email }),
    });
    const body = await r.body.text();
    if (r.statusCode !== 201) throw new Error(`create user: ${r.statusCode} ${body}`);
    load.users.set((JSON.parse(body) as { id: string }).id, email);
  };
  const loops = [
    ...Array.from({ length: 3 }, () => loop(20, shorten)),
    ...Array.from({ length: 2 }, () => loop(20, redirect)),
    ...Array.from({ length: 2 }, () => loop(30, createUser)),
  ];
  load.stop = async () => {
    stopping = true;
    await Promise.all(loops);
  };
  return load;
}

/**
 * Reads the three topics from the beginning to their ends, every message (a copy of an event would be seen): the
 * event ids of each created link and user, and the click ids of each marker.
 */
async function readTopics(expected: { links: number; users: number; markers: Set<string> }) {
  const created = new Map<string, Set<string>>();
  const usersCreated = new Map<string, Set<string>>();
  const clicks = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, id: string) =>
    map.set(key, (map.get(key) ?? new Set()).add(id));
  const topics = ['links.events', 'links.clicks', 'usermgmt.events'].map((t) => `${kafka.topicPrefix}${t}`);
  const next = new Map<string, string>(); // topic:partition -> the offset after the last message read
  const consumer = kafka.kafka.consumer({ groupId: `${kafka.topicPrefix}${name}-reader` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const meta = readHeaders(message.headers);
        if (meta && message.value) {
          if (meta.type === MessageTypeNames.ShortlinkCreated)
            add(created, decodeMessage(meta.type, meta.schema, message.value).id, meta.id);
          if (meta.type === MessageTypeNames.UserCreated)
            add(usersCreated, decodeMessage(meta.type, meta.schema, message.value).user_id, meta.id);
          if (meta.type === MessageTypeNames.ShortlinkClicked) {
            const agent = decodeMessage(meta.type, meta.schema, message.value).user_agent;
            if (agent && expected.markers.has(agent)) add(clicks, agent, meta.id);
          }
        }
        next.set(`${topic}:${partition}`, String(Number(message.offset) + 1));
      },
    });
    await waitFor(
      () =>
        created.size >= expected.links && usersCreated.size >= expected.users && clicks.size >= expected.markers.size,
      {
        what: 'every event and click on its topic',
        timeoutMs: 60_000,
        intervalMs: 200,
      },
    );
    // On to the end of every topic, so that a copy published after the original would have been seen too.
    const admin = kafka.kafka.admin();
    await admin.connect();
    try {
      await waitFor(
        async () => {
          for (const topic of topics) {
            for (const end of await admin.fetchTopicOffsets(topic)) {
              if (end.high !== '0' && next.get(`${topic}:${end.partition}`) !== end.high) return false;
            }
          }
          return true;
        },
        { what: 'the reader at the end of the topics', timeoutMs: 30_000, intervalMs: 200 },
      );
    } finally {
      await admin.disconnect();
    }
  } finally {
    await consumer.disconnect();
  }
  return { created, usersCreated, clicks };
}

/** Whether a group has committed every partition's end offset (a partition nothing was written to needs nothing). */
async function caughtUp(group: string, topics: string[]): Promise<boolean> {
  const admin = kafka.kafka.admin();
  await admin.connect();
  try {
    const behind: string[] = [];
    for (const topic of topics.map((t) => `${kafka.topicPrefix}${t}`)) {
      const ends = await admin.fetchTopicOffsets(topic);
      const [committed] = await admin.fetchOffsets({ groupId: `${kafka.topicPrefix}${group}`, topics: [topic] });
      for (const end of ends) {
        const at = committed!.partitions.find((p) => p.partition === end.partition)?.offset;
        if (end.offset !== '0' && at !== end.offset) behind.push(`${topic}[${end.partition}] ${at}/${end.offset}`);
      }
    }
    lag.set(group, behind.join(', '));
    return behind.length === 0;
  } finally {
    await admin.disconnect();
  }
}
const lag = new Map<string, string>();

const duplicates = (map: Map<string, Set<string>>) =>
  [...map].filter(([, ids]) => ids.size > 1).map(([key, ids]) => `${key}: ${[...ids].join(', ')}`);

describe('a rolling restart of every process under load', () => {
  it('cuts off no request, and loses or doubles no command, event, click or webhook', async () => {
    // A webhook endpoint for user.created: the dispatcher delivers each new user while it is being replaced too.
    const endpoint = await fetch(`${usermgmt.balancer!.url}/webhook_endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${usermgmtKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint_url: receiver.url, events: ['user.created'] }),
    });
    expect(endpoint.status).toBe(201);

    const load = startLoad();
    await waitFor(() => load.links.size >= 10 && load.users.size >= 5 && load.markers.size >= 20, {
      what: 'the load under way',
      timeoutMs: 30_000,
      failFast: () => load.failures[0],
    });
    const heldClient = new Pool(links.balancer!.url, { connections: HELD * 2 });
    const heldUsers = new Pool(usermgmt.balancer!.url, { connections: HELD * 2 });
    clients.push(heldClient, heldUsers);
    // Three lanes side by side, as one release applied to the cluster rolls its Deployments; in each lane one
    // Deployment after another, each one replica at a time.
    const lane = async (roles: Role[]) => {
      const done: Restart[] = [];
      for (const role of roles) done.push(await roll(role, role === usermgmt ? heldUsers : heldClient));
      return done;
    };
    const restarts = (
      await Promise.all([
        lane([workers['links-worker']!, links, redirector]),
        lane([workers['usermgmt-worker']!, usermgmt]),
        lane([workers['analytics-aggregator']!, workers['webhook-dispatcher']!]),
      ])
    ).flat();
    // A last stretch of load on the new replicas only.
    const before = load.links.size;
    await waitFor(() => load.links.size >= before + 3, {
      what: 'load on the new replicas',
      timeoutMs: 30_000,
      failFast: () => load.failures[0],
    });
    await load.stop();

    // Every process stopped by itself, in time (exit code 0), and every request was answered in full.
    expect(restarts.map((r) => [r.app, r.exitCode])).toEqual(restarts.map((r) => [r.app, 0]));
    expect([...load.failures, ...balancers.flatMap((b) => b.failures)]).toEqual([]);
    const held = restarts.flatMap((r) => r.held);
    expect(held).toHaveLength(2 * HELD);
    expect(held.map((h) => h.status)).toEqual(held.map(() => 201));
    // On its own keep-alive connections a client saw the idle one closed cleanly (FIN, nothing sent), and the
    // request inside the other answered in full, with `Connection: close` so that nothing more is sent on it.
    const direct = restarts.filter((r) => r.direct);
    expect(direct.map((r) => [r.app, r.direct!.idle])).toEqual(
      direct.map((r) => [r.app, { ending: 'end', extraBytes: 0 }]),
    );
    const directHeld = direct.filter((r) => r.app !== 'redirector');
    expect(
      directHeld.map((r) => [
        r.app,
        r.direct!.answer?.status,
        r.direct!.answer?.headers['connection'],
        r.direct!.ending,
      ]),
    ).toEqual(directHeld.map((r) => [r.app, 201, 'close', 'end']));
    console.log(
      `rolled ${restarts.map((r) => `${r.app} (up ${r.readyMs} ms, drained ${r.drainMs} ms)`).join(', ')} under ${load.links.size} links, ${load.users.size} users, ${load.markers.size} clicks`,
    );
    expect(load.links.size).toBeGreaterThan(20);
    expect(load.users.size).toBeGreaterThan(20);
    expect(load.markers.size).toBeGreaterThan(200);

    // Every created link and user is stored exactly once.
    const heldBy = (app: string) => {
      const restart = restarts.find((r) => r.app === app)!;
      return [...restart.held, { status: restart.direct!.answer!.status, body: restart.direct!.answer!.body }];
    };
    const heldLinks = heldBy('links-gateway').map((h) => JSON.parse(h.body) as { id: string; long_url: string });
    const heldUserIds = heldBy('usermgmt-gateway').map((h) => (JSON.parse(h.body) as { id: string }).id);
    const linkDocs = await mongo
      .db!.collection('links_links')
      .find({}, { projection: { long_url: 1, domain: 1, hash: 1 } })
      .toArray();
    const storedLongUrls = linkDocs
      .map((d) => d['long_url'] as string)
      .filter((u) => u.includes('/rolling/') || u.includes('/held/'));
    expect(storedLongUrls.sort()).toEqual([...load.links.values(), ...heldLinks.map((l) => l.long_url)].sort());
    const userDocs = await mongo
      .db!.collection('usermgmt_users')
      .find({}, { projection: { email: 1 } })
      .toArray();
    expect(userDocs.map((d) => String(d._id)).sort()).toEqual([...load.users.keys(), ...heldUserIds].sort());

    // One event per change (a copy would carry the same id), and one click per answered redirect.
    const topics = await readTopics({
      links: load.links.size + heldLinks.length,
      users: load.users.size + heldUserIds.length,
      markers: load.markers,
    });
    expect([...topics.created.keys()].sort()).toEqual([...load.links.keys(), ...heldLinks.map((l) => l.id)].sort());
    expect(duplicates(topics.created)).toEqual([]);
    expect([...topics.usersCreated.keys()].sort()).toEqual([...load.users.keys(), ...heldUserIds].sort());
    expect(duplicates(topics.usersCreated)).toEqual([]);
    expect(topics.clicks.size).toBe(load.markers.size);
    expect(duplicates(topics.clicks)).toEqual([]);

    // Every click counted once: the aggregator's stored counts equal the redirects answered, link by link,
    // once it has committed everything it read.
    await waitFor(() => caughtUp('analytics-aggregator', ['links.clicks']), {
      what: 'the aggregator caught up',
      timeoutMs: 60_000,
      intervalMs: 250,
    }).catch((error: Error) => {
      throw new Error(`${error.message}; behind: ${lag.get('analytics-aggregator')}`);
    });
    const counted = new Map<string, number>();
    for (const id of load.clicks.keys()) {
      const r = await fetch(`${links.balancer!.url}/v4/shortlinks/${id}/engagements/summary`, {
        headers: { authorization: `Bearer ${linksToken}` },
      });
      expect(r.status).toBe(200);
      counted.set(id, ((await r.json()) as { engagements: { clicks: number } }).engagements.clicks);
    }
    expect(Object.fromEntries(counted)).toEqual(Object.fromEntries(load.clicks));

    // Every new user reached the webhook receiver, each under one webhook id, none twice.
    const userIds = new Set([...load.users.keys(), ...heldUserIds]);
    const deliveries = await waitFor(
      () => {
        const byUser = new Map<string, Set<string>>();
        for (const request of receiver.requests) {
          const body = JSON.parse(request.body) as { data: { id: string } };
          byUser.set(body.data.id, (byUser.get(body.data.id) ?? new Set()).add(String(request.headers['webhook-id'])));
        }
        return [...userIds].every((id) => byUser.has(id)) && byUser;
      },
      { what: 'every user.created delivered', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect([...deliveries.keys()].sort()).toEqual([...userIds].sort());
    expect(duplicates(deliveries)).toEqual([]);
    expect(receiver.requests.length).toBe(userIds.size);
  }, 300_000);
});
