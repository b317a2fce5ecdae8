import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessageTypeNames } from '@platform/contracts';
import { createEgressClient, createEgressGuard } from '@platform/egress';
import { createKafka, createPublisher, type OutgoingMessage } from '@platform/kafka';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createRedis } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { createLogger } from '@platform/telemetry';
import { resolveInfra, uniqueName } from '@platform/testing';
import { WEBHOOK_TOPICS, createDeliveryStore, deliveryIdFor, type DeliveryStore } from '@platform/webhooks';
import { createDispatcher } from '../../apps/webhook-dispatcher/dist/dispatcher.js';
import { deleteRunTopics } from './cleanup.js';
import { cpuShares, machineCpu } from './cpu.js';
import { closedLoop } from './load.js';
import { statementLog, statementsPerRequest, type StatementShape } from './statements.js';
import { summarise } from './stats.js';
import { benchStores, type Store } from './stores.js';

/**
 * Webhook delivery throughput: a bare keep-alive undici POST loop (the ceiling) and the in-process webhook
 * dispatcher (Kafka RequestDelivery -> durable insert -> claim -> signed POST -> outcome), both against the
 * same HTTP receiver, which runs in a child process (this file with `--receiver`) so its CPU is not the client's.
 */

/** Wall-clock milliseconds with sub-millisecond resolution, comparable between the two processes. */
const now = () => performance.timeOrigin + performance.now();
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
const BODY_BYTES = 600;
/** The slow target of the one-slow-target case answers every request this late (the issue's figure). */
const SLOW_ANSWER_MS = 5000;
/** Where the receiver is slow: webhooks to paths under this one are answered after SLOW_ANSWER_MS. */
const SLOW_PATH = '/hooks/slow/';

// ---------------------------------------------------------------------------------------------------------
// The receiver (child process): answers 200 at once, records the first arrival time per `webhook-id`; under
// SLOW_PATH it answers after SLOW_ANSWER_MS and counts those requests apart (how many, how many open at once).

type ReceiverRequest = { cmd: 'reset' } | { cmd: 'expect'; n: number; timeoutMs: number } | { cmd: 'arrivals' };
interface SlowCounts {
  requests: number;
  answered: number;
  inFlight: number;
  maxInFlight: number;
}
interface ReceiverCounts {
  /** Distinct webhook ids received by the prompt targets: what `expect` waits for. */
  unique: number;
  total: number;
  duplicates: number;
  missingId: number;
  baseline: number;
  slow: SlowCounts;
}
interface ReceiverReply extends ReceiverCounts {
  id: number;
  reached?: boolean;
  arrivals?: Array<[string, number]>;
}
type ReceiverMessage = { type: 'listening'; port: number } | ({ type: 'reply' } & ReceiverReply);

async function receiverMain(): Promise<void> {
  const answer = Buffer.from('{"received":true}');
  let arrivals = new Map<string, number>();
  let counts = { total: 0, duplicates: 0, missingId: 0, baseline: 0 };
  const noSlow = (): SlowCounts & { ids: Set<string> } => ({
    requests: 0,
    answered: 0,
    inFlight: 0,
    maxInFlight: 0,
    ids: new Set(),
  });
  // Replaced on reset: a slow request of an earlier case that ends later updates its own case's counts.
  let slow = noSlow();
  let waiting: { id: number; n: number; timer: NodeJS.Timeout } | undefined;
  const send = (message: ReceiverMessage) => process.send?.(message);
  const snapshot = (): ReceiverCounts => {
    const { ids: _ids, ...slowCounts } = slow;
    return { unique: arrivals.size, ...counts, slow: slowCounts };
  };
  const check = () => {
    if (!waiting || arrivals.size < waiting.n) return;
    const { id, timer } = waiting;
    clearTimeout(timer);
    waiting = undefined;
    send({ type: 'reply', id, reached: true, ...snapshot() });
  };

  const server = createServer((req, res) => {
    const at = now();
    if (req.url?.startsWith(SLOW_PATH)) {
      const mine = slow;
      counts.total++;
      const id = req.headers['webhook-id'];
      if (typeof id !== 'string') counts.missingId++;
      else if (mine.ids.has(id)) counts.duplicates++;
      else mine.ids.add(id);
      mine.requests++;
      mine.maxInFlight = Math.max(mine.maxInFlight, ++mine.inFlight);
      let open = true;
      const close = () => {
        if (open) mine.inFlight--;
        open = false;
      };
      res.on('close', close);
      req.on('end', () => {
        setTimeout(() => {
          if (!open) return;
          mine.answered++;
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
          res.end(answer, close);
        }, SLOW_ANSWER_MS);
      });
      req.resume();
      return;
    }
    if (req.url?.startsWith('/hooks/')) {
      counts.total++;
      const id = req.headers['webhook-id'];
      if (typeof id !== 'string') counts.missingId++;
      else if (arrivals.has(id)) counts.duplicates++;
      else arrivals.set(id, at);
      check();
    } else {
      counts.baseline++;
    }
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      res.end(answer);
    });
    req.resume();
  });
  // Longer than the clients' keep-alive (undici: 4 s default, egress: 10 s), so the client always closes first.
  server.keepAliveTimeout = 15_000;
  server.maxRequestsPerSocket = 0;

  process.on('message', (raw: ReceiverRequest & { id: number }) => {
    switch (raw.cmd) {
      case 'reset':
        arrivals = new Map();
        counts = { total: 0, duplicates: 0, missingId: 0, baseline: 0 };
        slow = noSlow();
        send({ type: 'reply', id: raw.id, ...snapshot() });
        break;
      case 'expect':
        if (waiting) clearTimeout(waiting.timer);
        waiting = {
          id: raw.id,
          n: raw.n,
          timer: setTimeout(() => {
            waiting = undefined;
            send({ type: 'reply', id: raw.id, reached: false, ...snapshot() });
          }, raw.timeoutMs),
        };
        check();
        break;
      case 'arrivals':
        send({ type: 'reply', id: raw.id, arrivals: [...arrivals], ...snapshot() });
        break;
    }
  });
  // The parent is gone (crashed, killed): never linger.
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') send({ type: 'listening', port: address.port });
  });
}

interface Receiver {
  origin: string;
  reset(): Promise<ReceiverReply>;
  /**
   * Resolves when `n` distinct webhook ids have arrived at the prompt targets since the last reset, or after
   * `timeoutMs`.
   */
  expect(n: number, timeoutMs: number): Promise<ReceiverReply>;
  arrivals(): Promise<{ counts: ReceiverReply; at: Map<string, number> }>;
  stop(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const child: ChildProcess = fork(import.meta.filename, ['--receiver'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (reply: ReceiverReply) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = true;
      for (const p of pending.values()) p.reject(new Error(`receiver exited (${code ?? signal})`));
      pending.clear();
      resolve();
    }),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('receiver did not start within 30 s')), 30_000);
    child.on('message', (message: ReceiverMessage) => {
      if (message.type === 'listening') {
        clearTimeout(timer);
        resolve(message.port);
        return;
      }
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      waiter?.resolve(message);
    });
    child.on('exit', () => reject(new Error('receiver exited before listening')));
  });
  const call = (request: ReceiverRequest) =>
    new Promise<ReceiverReply>((resolve, reject) => {
      if (exited) return reject(new Error('receiver is not running'));
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      child.send({ ...request, id });
    });
  return {
    origin: `http://127.0.0.1:${port}`,
    reset: () => call({ cmd: 'reset' }),
    expect: (n, timeoutMs) => call({ cmd: 'expect', n, timeoutMs: Math.max(1, Math.round(timeoutMs)) }),
    async arrivals() {
      const reply = await call({ cmd: 'arrivals' });
      return { counts: reply, at: new Map(reply.arrivals ?? []) };
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const killed = await Promise.race([exit.then(() => true), sleep(5000).then(() => false)]);
      if (!killed) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Instrumentation of the dispatcher's dependencies (wrappers and driver events only; no dispatcher code changes).

interface CallStats {
  count: number;
  mean_ms: number;
  p99_ms: number;
  total_ms: number;
}

function callStats(durations: number[]): CallStats {
  const s = summarise(durations, 0, 1);
  return {
    count: durations.length,
    mean_ms: s.mean_ms,
    p99_ms: s.p99_ms,
    total_ms: round(
      durations.reduce((a, b) => a + b, 0),
      1,
    ),
  };
}

/** Times the store calls the scheduler and the consumer make; `record` switches recording on for the measured window. */
function instrumentStore(store: DeliveryStore) {
  const durations = new Map<string, number[]>();
  let recording = false;
  let lastEnqueueAt = 0;
  function timed<A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>, label = (_result: R) => name) {
    return async (...args: A): Promise<R> => {
      const started = performance.now();
      const result = await fn(...args);
      if (recording) {
        const key = label(result);
        let list = durations.get(key);
        if (!list) durations.set(key, (list = []));
        list.push(performance.now() - started);
        if (name === 'enqueueMany') lastEnqueueAt = now();
      }
      return result;
    };
  }
  const wrapped: DeliveryStore = {
    ...store,
    enqueue: timed('enqueue', store.enqueue),
    pendingByIds: timed('pendingByIds', store.pendingByIds),
    enqueueMany: timed('enqueueMany', store.enqueueMany),
    recordDelivered: timed('recordDelivered', store.recordDelivered),
    archiveFinished: timed('archiveFinished', store.archiveFinished),
    noteFailure: timed('noteFailure', store.noteFailure),
    scheduleRetry: timed('scheduleRetry', store.scheduleRetry),
    deadLetter: timed('deadLetter', store.deadLetter),
  };
  return {
    store: wrapped,
    begin() {
      durations.clear();
      lastEnqueueAt = 0;
      recording = true;
    },
    end() {
      recording = false;
      return {
        lastEnqueueAt,
        calls: Object.fromEntries(
          [...durations].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, callStats(v)]),
        ),
      };
    },
  };
}

/**
 * Every operation on the store checks a connection out of the driver's pool (maxPoolSize 20), so pool events
 * count all MongoDB round trips, the outbox relay's included, with their time on the wire and in the pool queue.
 */
function watchMongoPool(connection: MongoConnection) {
  const client = connection.getClient();
  let recording = false;
  let ops = 0;
  let waitMs = 0;
  let heldMs = 0;
  const checkedOutAt = new Map<unknown, number>();
  client.on('connectionCheckedOut', (event: { connectionId: unknown; durationMS?: number }) => {
    if (!recording) return;
    ops++;
    waitMs += event.durationMS ?? 0;
    checkedOutAt.set(event.connectionId, performance.now());
  });
  client.on('connectionCheckedIn', (event: { connectionId: unknown }) => {
    const at = checkedOutAt.get(event.connectionId);
    if (at === undefined) return;
    checkedOutAt.delete(event.connectionId);
    heldMs += performance.now() - at;
  });
  return {
    begin() {
      ops = 0;
      waitMs = 0;
      heldMs = 0;
      checkedOutAt.clear();
      recording = true;
    },
    end() {
      recording = false;
      return { ops, mean_pool_wait_ms: round(waitMs / Math.max(1, ops)), mean_op_ms: round(heldMs / Math.max(1, ops)) };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The benchmark.

const envInt = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
};

const root = path.resolve(import.meta.dirname, '../..');
const infra = resolveInfra();
const runName = uniqueName('whbench');
// Small on purpose: on FerretDB/SQLite the dispatcher manages a few deliveries per second (see the description),
// and the three cases must finish within about five minutes on a 2-core machine.
const deliveries = envInt('BENCH_WEBHOOK_DELIVERIES', 300);
const baselineRequests = envInt('BENCH_WEBHOOK_BASELINE_REQUESTS', 5000);
// Enough for V8 to optimize the delivery path (as usermgmt-roundtrip's 500): a dispatcher serving for days pays its
// compilation once, not in every burst. 20 left the first case, one target, paying most of it.
const warmup = envInt('BENCH_WEBHOOK_WARMUP', 300);
const probes = envInt('BENCH_WEBHOOK_PROBES', 10);
const caseSeconds = envInt('BENCH_WEBHOOK_CASE_SECONDS', 120);
const targetCounts = (process.env['BENCH_WEBHOOK_TARGETS'] ?? '1,10,100').split(',').map((t) => {
  const n = Number(t);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error('BENCH_WEBHOOK_TARGETS must be a comma-separated list of positive integers');
  return n;
});
/** The one-slow-target case: how many targets in all (one of them slow), compared with the case of as many prompt ones. */
const slowCaseTargets = envInt('BENCH_WEBHOOK_SLOW_CASE_TARGETS', 100);
/**
 * Deliveries to the slow target on top of its round-robin share (3 of 300), published first: as many as the
 * dispatcher's concurrency, so that without a per-target bound they would take every slot for 5 s.
 */
const slowExtra = envInt('BENCH_WEBHOOK_SLOW_EXTRA', envInt('BENCH_WEBHOOK_CONCURRENCY', 64));
const publishBatch = 200;
const dispatcherSettings = {
  // The service's default (WEBHOOK_TIMEOUT_MS), well above SLOW_ANSWER_MS: the slow target's answers count as
  // deliveries; at 5000 they would race the timeout and be retried as failures.
  timeoutMs: 15_000,
  concurrency: envInt('BENCH_WEBHOOK_CONCURRENCY', 64),
  perTargetConcurrency: envInt('BENCH_WEBHOOK_PER_TARGET_CONCURRENCY', 4),
  // Only matters if an attempt fails (none should): a retry then comes in milliseconds, not minutes.
  retryScale: 0.001,
  // The service's default (WEBHOOK_POLL_INTERVAL_MS).
  pollIntervalMs: envInt('BENCH_WEBHOOK_POLL_INTERVAL_MS', 500),
};
const logger = createLogger({ name: 'webhook-bench', level: process.env['BENCH_LOG_LEVEL'] ?? 'silent' });
const sealer = createSealer('bench-sealing-key-0123456789abcdef');
const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** A user.created-shaped JSON body padded to BODY_BYTES, the same size for the baseline and the dispatcher. */
function payloadFor(eventId: string): string {
  const body = {
    id: eventId,
    event: 'user.created',
    created_at: '2026-01-01T00:00:00.000Z',
    data: {
      object: 'user',
      id: 'user_01HZBENCH00000000000000000',
      email: 'bench.user@example.com',
      first_name: 'Bench',
      last_name: 'User',
      email_verified: true,
      profile_picture_url: null,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    },
    padding: '',
  };
  body.padding = 'x'.repeat(Math.max(0, BODY_BYTES - Buffer.byteLength(JSON.stringify(body))));
  return JSON.stringify(body);
}

function latencySummary(latencies: number[]) {
  const s = summarise(latencies, 0, 1);
  return {
    count: latencies.length,
    p50_ms: s.p50_ms,
    p90_ms: s.p90_ms,
    p99_ms: s.p99_ms,
    mean_ms: s.mean_ms,
    max_ms: round(Math.max(...latencies, 0)),
  };
}

async function bounded<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the store does with the simplest operations, for scale: serial `_id`-keyed upserts and reads of
 * ~600-byte documents in a scratch database (dropped at once).
 */
async function calibrateStore(store: Store) {
  const mongo = await connectMongo({ url: store.mongoUrl, dbName: `${runName}_calibration`, appName: runName });
  try {
    const collection = mongo.db!.collection<{ _id: string; payload: string }>('calibration');
    const payload = 'x'.repeat(BODY_BYTES);
    const rate = async (n: number, op: (i: number) => Promise<unknown>) => {
      const started = performance.now();
      for (let i = 0; i < n; i++) await op(i);
      return round((n * 1000) / (performance.now() - started), 1);
    };
    const upserts = await rate(200, (i) =>
      collection.updateOne({ _id: `doc_${i}` }, { $set: { payload } }, { upsert: true }),
    );
    const reads = await rate(200, (i) => collection.findOne({ _id: `doc_${i}` }));
    return { serial_id_upserts_per_second: upserts, serial_id_reads_per_second: reads };
  } finally {
    await mongo.dropDatabase().catch(() => undefined);
    await mongo.close();
  }
}

/**
 * One case: a burst of `deliveries` spread round-robin over `targets`, of which the last `slowTargets` answer
 * after SLOW_ANSWER_MS and also receive `slowExtra` deliveries each, published first. Throughput and latency
 * are the prompt targets'; the case ends when they have all arrived, without waiting for the slow ones.
 */
async function runCase(targets: number, receiver: Receiver, target: Store, slowTargets = 0) {
  const name = `${runName}_${target.name}_t${targets}${slowTargets > 0 ? `_slow${slowTargets}` : ''}`;
  const cleanup: Array<[string, () => Promise<unknown>]> = [];
  try {
    const kafka = createKafka({
      brokers: infra.kafkaBrokers.split(','),
      clientId: name,
      logger,
      topicPrefix: `${name}.`,
    });
    cleanup.push(['delete topics', () => deleteRunTopics(kafka, [`${kafka.topicPrefix}webhook-dispatcher`])]);
    const mongo = await connectMongo({ url: target.mongoUrl, dbName: name, appName: name });
    cleanup.push(['close mongo', () => mongo.close()]);
    cleanup.push(['drop database', () => mongo.dropDatabase()]);
    const store = createDeliveryStore(mongo);
    await store.ensureIndexes();
    const instrumented = instrumentStore(store);
    const pool = watchMongoPool(mongo);
    const egress = createEgressClient(createEgressGuard({ allow: ['127.0.0.0/8'] }), {
      connections: dispatcherSettings.concurrency,
    });
    cleanup.push(['close egress', () => egress.close()]);
    const redis = createRedis(infra.redisUrl, { name });
    cleanup.push(['close redis', async () => redis.disconnect()]);
    const dispatcher = createDispatcher({
      kafka,
      store: instrumented.store,
      redis,
      egress,
      sealer,
      logger,
      ...dispatcherSettings,
    });
    cleanup.push(['stop dispatcher', () => dispatcher.stop()]);
    await bounded('dispatcher start', 90_000, dispatcher.start());
    const publisher = createPublisher(kafka, { source: '/bench' });
    cleanup.push(['disconnect publisher', () => publisher.disconnect()]);
    await publisher.connect();
    await bounded('consumer group join', 90_000, dispatcher.ready());

    // One sealed secret per target, as a producer stores it per endpoint.
    const isSlow = (k: number) => k >= targets - slowTargets;
    const targetList = Array.from({ length: targets }, (_, k) => ({
      id: `tgt_${k}`,
      url: `${receiver.origin}${isSlow(k) ? SLOW_PATH : '/hooks/'}t${targets}/${k}`,
      sealed_secret: sealer.seal(secret),
      signature_scheme: 'standard' as const,
      previous_sealed_secret: null,
      previous_secret_expires_at: null,
      oauth: null,
      rate_limit: null,
    }));
    const promptTargets = targetList.filter((_, k) => !isSlow(k));
    const slowList = targetList.filter((_, k) => isSlow(k));
    const slowIds = slowList.map((t) => t.id);
    const request = (
      phase: string,
      i: number,
      among = targetList,
    ): OutgoingMessage<typeof MessageTypeNames.RequestDelivery> => {
      const target = among[i % among.length]!;
      const eventId = `evt_${name}_${phase}_${i}`;
      return {
        topic: WEBHOOK_TOPICS.deliveries,
        key: target.id,
        type: MessageTypeNames.RequestDelivery,
        value: {
          delivery_id: deliveryIdFor('bench', eventId, target.id),
          producer: 'bench',
          tenant_id: 'tenant_bench',
          target,
          event_id: eventId,
          event_type: 'user.created',
          payload: payloadFor(eventId),
          requested_at: Date.now(),
          ordering_key: null,
        },
      };
    };
    const publishAll = async (
      messages: Array<OutgoingMessage<typeof MessageTypeNames.RequestDelivery>>,
      at: Map<string, number>,
    ) => {
      for (let i = 0; i < messages.length; i += publishBatch) {
        const batch = messages.slice(i, i + publishBatch);
        const t = now();
        for (const m of batch) at.set(m.value.event_id, t);
        await publisher.publishMany(batch);
      }
    };

    // Warm-up (JIT, pools, partitions assigned and fetching), not measured.
    await receiver.reset();
    await publishAll(
      Array.from({ length: warmup }, (_, i) => request('warmup', i, promptTargets)),
      new Map(),
    );
    const warmed = await receiver.expect(warmup, 60_000);
    if (!warmed.reached) throw new Error(`warm-up: ${warmed.unique}/${warmup} webhooks arrived within 60 s`);
    await sleep(500);

    // Unloaded latency: one delivery at a time, the next published only after the previous one arrived.
    await receiver.reset();
    const probeSent = new Map<string, number>();
    for (let i = 0; i < probes; i++) {
      await publishAll([request('probe', i, promptTargets)], probeSent);
      const arrived = await receiver.expect(i + 1, 10_000);
      if (!arrived.reached) throw new Error(`probe ${i}: no webhook within 10 s`);
      await sleep(20);
    }
    const probeArrivals = (await receiver.arrivals()).at;
    const idle = [...probeSent].flatMap(([id, sent]) => (probeArrivals.has(id) ? [probeArrivals.get(id)! - sent] : []));

    // The burst: N deliveries published as fast as Kafka takes them; throughput is first publish -> last arrival
    // (at the prompt targets: the slow ones' deliveries, the extra ones first, are published but not awaited).
    await receiver.reset();
    const burst = Array.from({ length: deliveries }, (_, i) => request('burst', i));
    const toSlow = (m: OutgoingMessage<typeof MessageTypeNames.RequestDelivery>) => slowIds.includes(m.value.target.id);
    const messages = burst.filter((m) => !toSlow(m));
    const slowMessages = [
      ...(slowList.length > 0
        ? Array.from({ length: slowExtra * slowList.length }, (_, i) => request('slow', i, slowList))
        : []),
      ...burst.filter(toSlow),
    ];
    const sent = new Map<string, number>();
    const inFlight: number[] = [];
    const sampler = setInterval(() => inFlight.push(dispatcher.scheduler.inFlight()), 10);
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    instrumented.begin();
    pool.begin();
    loopDelay.enable();
    const statements = await statementLog();
    await statements?.reset();
    const cpuBefore = process.cpuUsage();
    const machineBefore = machineCpu();
    const t0 = now();
    let publishDoneAt = 0;
    const [, done] = await Promise.all([
      publishAll(slowMessages, new Map())
        .then(() => publishAll(messages, sent))
        .then(() => (publishDoneAt = now())),
      receiver.expect(messages.length, caseSeconds * 1000),
    ]);
    const measuredEnd = now();
    const cpu = process.cpuUsage(cpuBefore);
    loopDelay.disable();
    clearInterval(sampler);
    const storeOps = pool.end();
    const storeCalls = instrumented.end();

    const { at: arrivals, counts } = await receiver.arrivals();
    // What is left for the slow targets is dropped from the queue, so that the stop waits only for those under way.
    // The queue groups deliveries by producer and target (deliveryGroup).
    for (const id of slowIds) await dispatcher.queue.dropGroup(`bench:${id}`);
    const latencies: number[] = [];
    let lastArrival = t0;
    for (const [id, publishedAt] of sent) {
      const arrivedAt = arrivals.get(id);
      if (arrivedAt === undefined) continue;
      latencies.push(arrivedAt - publishedAt);
      lastArrival = Math.max(lastArrival, arrivedAt);
    }
    const seconds = ((done.reached ? lastArrival : measuredEnd) - t0) / 1000;

    // The store's view: every delivery marked delivered (after its POST, so a little later than the receipt).
    const expectedDelivered = warmup + probes + messages.length;
    // Delivered ones are marked in the hot collection, then archived to the finished one, in batches: both count.
    const [hot, finished] = store.outboxCollections();
    const settleDeadline = t0 + caseSeconds * 1000;
    // Polled until no prompt delivery is pending: a read of the hot collection, which holds only what is still
    // being worked. Counting the delivered ones at every poll would read (and FerretDB decode) every finished
    // delivery each time, a large part of the store's CPU per delivery measured here.
    while (now() < settleDeadline) {
      const pending = await hot!.countDocuments({ status: 'pending', 'target.id': { $nin: slowIds } });
      if (pending === 0) break;
      await sleep(50);
    }
    const settledAt = now();
    const machineAfter = machineCpu();
    const delivered = await Promise.all(
      [hot!, finished!].map((c) => c.countDocuments({ status: 'delivered', 'target.id': { $nin: slowIds } })),
    );
    const markedDelivered = delivered[0]! + delivered[1]!;
    // The relay's acknowledgements land after the records: read until the writes settle (a few seconds at most).
    const writes = (list: StatementShape[]) =>
      list.filter((x) => !x.statement.startsWith('SELECT')).reduce((n, x) => n + x.calls, 0);
    let shapes = (await statements?.read(name)) ?? [];
    for (let settled = 0, i = 0; statements && shapes.length > 0 && settled < 2 && i < 10; i++) {
      await sleep(500);
      const again = await statements.read(name);
      settled = writes(again) === writes(shapes) ? settled + 1 : 0;
      shapes = again;
    }
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;

    return {
      targets,
      slow_targets: slowTargets,
      deliveries: messages.length,
      received: latencies.length,
      completed: done.reached === true,
      seconds: round(seconds),
      deliveries_per_second: round(latencies.length / seconds, 1),
      latency: latencySummary(latencies),
      idle_latency: latencySummary(idle),
      receiver: { requests: counts.total, duplicates: counts.duplicates, without_webhook_id: counts.missingId },
      timeline_seconds: {
        publish_done: round((publishDoneAt - t0) / 1000),
        last_enqueued: round((storeCalls.lastEnqueueAt - t0) / 1000),
        last_receipt: round((lastArrival - t0) / 1000),
        all_marked_delivered: markedDelivered >= expectedDelivered ? round((settledAt - t0) / 1000) : null,
      },
      in_flight: {
        cap: Math.min(dispatcherSettings.concurrency, targets * dispatcherSettings.perTargetConcurrency),
        mean: round(inFlight.reduce((a, b) => a + b, 0) / Math.max(1, inFlight.length), 1),
        max: Math.max(0, ...inFlight),
      },
      store: {
        round_trips: storeOps.ops,
        round_trips_per_second: round(storeOps.ops / seconds, 1),
        round_trips_per_delivery: round(storeOps.ops / Math.max(1, latencies.length), 2),
        mean_round_trip_ms: storeOps.mean_op_ms,
        mean_pool_wait_ms: storeOps.mean_pool_wait_ms,
        calls: storeCalls.calls,
      },
      client_process: {
        cpu_seconds: round(cpuSeconds),
        cpu_ms_per_delivery: round((cpuSeconds * 1000) / Math.max(1, latencies.length)),
        event_loop_delay_p99_ms: round(loopDelay.percentile(99) / 1e6),
      },
      // Every process of the machine from the first publish until every delivery was marked delivered: the
      // store (FerretDB and PostgreSQL) is most of it.
      machine_cpu_ms_per_delivery: cpuShares(machineBefore, machineAfter, Math.max(1, latencies.length)),
      // What FerretDB ran on PostgreSQL from the burst's first publish until its writes settled, per delivery.
      ...(shapes.length > 0 ? { sql_statements_per_delivery: statementsPerRequest(shapes, messages.length) } : {}),
      // Until the prompt targets' last webhook arrived.
      slow_target:
        slowTargets > 0
          ? {
              answer_after_ms: SLOW_ANSWER_MS,
              deliveries: slowMessages.length,
              requests_received: counts.slow.requests,
              answered: counts.slow.answered,
              max_in_flight: counts.slow.maxInFlight,
              per_target_concurrency: dispatcherSettings.perTargetConcurrency,
              within_bound: counts.slow.maxInFlight <= dispatcherSettings.perTargetConcurrency,
            }
          : null,
    };
  } finally {
    for (const [what, step] of cleanup.reverse()) {
      await bounded(what, 30_000, step()).catch((error: unknown) =>
        console.error(`[webhook-throughput] ${name}: ${what} failed: ${String(error)}`),
      );
    }
  }
}

async function main() {
  // Last resort if something hangs past every per-step bound: the receiver exits with its IPC channel.
  setTimeout(() => {
    console.error('[webhook-throughput] hard time limit (15 min) reached');
    process.exit(2);
  }, 15 * 60_000).unref();

  const receiver = await startReceiver();
  try {
    const body = payloadFor('evt_baseline');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const baseline = await closedLoop({
      origin: receiver.origin,
      concurrency: dispatcherSettings.concurrency,
      total: baselineRequests,
      warmup: 50,
      maxSeconds: caseSeconds,
      expectStatus: 200,
      // The same headers (names and sizes) as a signed delivery, without the signing work.
      request: (i) => ({
        method: 'POST',
        path: '/baseline',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'platform-webhooks/1.0',
          'webhook-id': `evt_baseline_${i}`,
          'webhook-timestamp': timestamp,
          'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        },
        body,
      }),
    });

    const stores = benchStores();
    const storeCalibration: Record<string, unknown> = {};
    const cases: Array<
      Awaited<ReturnType<typeof runCase>> | { targets: number; slow_targets: number; deliveries: number; error: string }
    > = [];
    const storeOf = new Map<object, string>();
    const shapes = [
      ...targetCounts.map((targets) => ({ targets, slowTargets: 0 })),
      { targets: slowCaseTargets, slowTargets: 1 },
    ];
    for (const store of stores) {
      storeCalibration[store.name] = await calibrateStore(store);
      for (const { targets, slowTargets } of shapes) {
        try {
          const c = await runCase(targets, receiver, store, slowTargets);
          storeOf.set(c, store.name);
          cases.push(c);
        } catch (error) {
          const what = `${targets} targets${slowTargets > 0 ? ` (${slowTargets} slow)` : ''}`;
          console.error(`[webhook-throughput] ${store.name}: case with ${what} failed:`, error);
          const c = { targets, slow_targets: slowTargets, deliveries, error: String(error) };
          storeOf.set(c, store.name);
          cases.push(c);
          process.exitCode = 1;
        }
      }
    }
    const caseKey = (c: { targets: number; slow_targets: number }) =>
      `${storeOf.get(c)}_targets_${c.targets}${c.slow_targets > 0 ? `_slow_${c.slow_targets}` : ''}`;

    const ratios = Object.fromEntries(
      cases.flatMap((c) =>
        'latency' in c
          ? [
              [
                caseKey(c),
                {
                  throughput_baseline_over_dispatcher: round(baseline.requests_per_second / c.deliveries_per_second, 1),
                  p50_dispatcher_over_baseline: round(c.latency.p50_ms / baseline.p50_ms, 1),
                  p99_dispatcher_over_baseline: round(c.latency.p99_ms / baseline.p99_ms, 1),
                  idle_p50_dispatcher_over_baseline: round(c.idle_latency.p50_ms / baseline.p50_ms, 1),
                },
              ],
            ]
          : [],
      ),
    );
    const measured = (store: string | undefined, targets: number, slowTargets = 0) => {
      const c = cases.find((x) => storeOf.get(x) === store && x.targets === targets && x.slow_targets === slowTargets);
      return c && 'latency' in c ? c : undefined;
    };
    const rate = (store: string | undefined, targets: number) => measured(store, targets)?.deliveries_per_second;
    // The prompt targets of the slow case against the case where every target is prompt, in the same run.
    const slowTargetIsolation = Object.fromEntries(
      stores.map(({ name: store }) => {
        const [slow, prompt] = [measured(store, slowCaseTargets, 1), measured(store, slowCaseTargets)];
        if (!slow || !prompt) return [store, null];
        return [
          store,
          {
            prompt_deliveries_per_second: slow.deliveries_per_second,
            all_prompt_deliveries_per_second: prompt.deliveries_per_second,
            throughput_over_all_prompt: round(slow.deliveries_per_second / prompt.deliveries_per_second, 2),
            p50_ms: slow.latency.p50_ms,
            all_prompt_p50_ms: prompt.latency.p50_ms,
            p50_over_all_prompt: round(slow.latency.p50_ms / prompt.latency.p50_ms, 2),
            p99_ms: slow.latency.p99_ms,
            all_prompt_p99_ms: prompt.latency.p99_ms,
            p99_over_all_prompt: round(slow.latency.p99_ms / prompt.latency.p99_ms, 2),
            slow_target_max_in_flight: slow.slow_target?.max_in_flight ?? null,
            per_target_concurrency: dispatcherSettings.perTargetConcurrency,
          },
        ];
      }),
    );
    const storeRatios =
      stores.length > 1
        ? Object.fromEntries(
            targetCounts.map((t) => {
              const [a, b] = [rate(stores[0]!.name, t), rate(stores[1]!.name, t)];
              return [`targets_${t}`, a && b ? { throughput_first_over_second: round(a / b, 2) } : null];
            }),
          )
        : undefined;

    const result = {
      benchmark: 'webhook-throughput',
      description:
        'Webhook delivery layer against one local HTTP receiver (child process, answers 200 at once). Baseline: a bare keep-alive undici Pool ' +
        "POSTing the same ~600-byte body with the same header set at the dispatcher's concurrency (client-side latency). Dispatcher: the real " +
        'createDispatcher in this process (Kafka consumer -> MongoDB insert -> claim -> sealed secret opened, Standard Webhooks signature, ' +
        'SSRF-guarded undici POST -> attempt + outcome written -> outbox relay to Kafka), fed a burst of RequestDelivery messages spread ' +
        'round-robin over 1, 10 and 100 targets; fresh topic prefix, database and dispatcher per case, dropped afterwards. deliveries_per_second ' +
        'is first publish -> last webhook received; latency is publish -> arrival at the receiver per webhook-id, so in a burst it is mostly ' +
        'queueing behind the backlog (compare idle_latency: one delivery at a time on an idle dispatcher). Every case runs on each store of the ' +
        'run (FerretDB 1.24 with the platform patch on PostgreSQL, the default, and on SQLite, the former default); store_ratios compare ' +
        'their rates. store_calibration: simple _id-keyed operations per second on each store when idle. One more case per store: ' +
        `${slowCaseTargets} targets, of which one answers every request after ${SLOW_ANSWER_MS} ms and also receives ${slowExtra} deliveries ` +
        "published before the burst; its figures are the prompt targets' (the case ends when their last webhook arrived, the slow " +
        "target's remaining deliveries are dropped), and slow_target_isolation compares them with the all-prompt case of the same " +
        'run, with the most requests the slow target had open at once against the per-target concurrency. Kafka, the store, the ' +
        'receiver and this process share the same 2 CPUs.',
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
      settings: {
        deliveries_per_case: deliveries,
        baseline_requests: baselineRequests,
        body_bytes: Buffer.byteLength(body),
        warmup_per_case: warmup,
        idle_probes_per_case: probes,
        publish_batch: publishBatch,
        case_time_limit_seconds: caseSeconds,
        slow_case: {
          targets: slowCaseTargets,
          slow_targets: 1,
          answer_after_ms: SLOW_ANSWER_MS,
          extra_deliveries: slowExtra,
        },
        dispatcher: {
          ...dispatcherSettings,
          egress_connections: dispatcherSettings.concurrency,
          consumer_partitions_concurrently: 4,
          topic_partitions: 4,
        },
        baseline_concurrency: dispatcherSettings.concurrency,
        kafka_key: 'target id (one target -> one partition)',
      },
      targets: { one_target_deliveries_per_second: 150 },
      stores: Object.fromEntries(stores.map((st) => [st.name, st.mongoUrl])),
      store_calibration: storeCalibration,
      baseline_bare_undici: baseline,
      cases: cases.map((c) => ({ backend: storeOf.get(c), ...c })),
      ratios,
      store_ratios: storeRatios,
      slow_target_isolation: slowTargetIsolation,
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/webhook-throughput.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await receiver.stop();
  }
}

if (process.argv[2] === '--receiver') await receiverMain();
else await main();
