import { describe, expect, it } from 'vitest';
import type { Claim, LeaseQueue } from '@platform/redis';
import { fake } from '@platform/testing';
import { createLogger } from '@platform/telemetry';
import type { AttemptRecord, AttemptResult, DeliveryDoc, DeliveryStore } from '@platform/webhooks';
import { createScheduler } from './scheduler.js';

type Outcome = { result: AttemptResult; record: AttemptRecord };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const delivered: Outcome = {
  result: { kind: 'response', status: 200, retryAfter: undefined },
  record: { status: 200, latencyMs: 5, error: null, responseBody: 'ok', startedAt: new Date() },
};

function delivery(id: string): DeliveryDoc {
  return { _id: id, target: { id: 't1' }, attempts: 0, schedule_offset: 0, next_attempt_at: new Date() } as DeliveryDoc;
}

const claimOf = (d: DeliveryDoc, leaseMs: number): Claim => ({ id: d._id, group: 't1', lease: Date.now() + leaseMs });

/**
 * A scheduler over a fake queue that hands out `due` once each (a claim leased for `leaseMs`), then nothing, and
 * a fake store that holds them; the attempt is the test's.
 */
function setup(options: {
  due: Array<DeliveryDoc | Promise<DeliveryDoc>>;
  attempt: (d: DeliveryDoc) => Promise<Outcome>;
  recordDelivered?: () => Promise<void>;
  drainTimeoutMs?: number;
  leaseMs?: number;
}) {
  const due = [...options.due];
  const held = new Map<string, DeliveryDoc>();
  const claimNext = async (most: number) => {
    const next = most > 0 ? due.shift() : undefined;
    if (!next) return [];
    const d = await next;
    held.set(d._id, d);
    return [claimOf(d, options.leaseMs ?? 60_000)];
  };
  const queue = fake<LeaseQueue>({
    claim: claimNext,
    vacateAndClaim: (_claim: Claim, most: number) => claimNext(most),
    finish: async () => true,
    finishMany: async (claims: Claim[]) => claims.length,
    retry: async () => true,
    vacate: async () => true,
    nextDueAt: async () => null,
    depth: async () => ({ queued: 0, claimed: held.size, oldestReadyAt: null }),
  });
  const store = fake<DeliveryStore>({
    pendingByIds: async (ids: string[]) => ids.map((id) => held.get(id)!),
    pendingItems: async () => [],
    recordDelivered: options.recordDelivered ?? (async () => undefined),
    archiveFinished: async () => undefined,
  });
  const attempted: string[] = [];
  const scheduler = createScheduler({
    store,
    queue,
    attempt: (d) => {
      attempted.push(d._id);
      return options.attempt(d);
    },
    logger: createLogger({ name: 'test', level: 'silent' }),
    concurrency: 4,
    timeoutMs: 1000,
    retryScale: 1,
    pollIntervalMs: 10_000,
    reconcileIntervalMs: 60_000,
    disableAfterMs: 60_000,
    leaseGraceMs: 1000,
    drainTimeoutMs: options.drainTimeoutMs ?? 5000,
  });
  const reads = ['pendingByIds', 'pendingItems', 'archiveFinished'];
  const writes = () => [
    ...store.calls.filter((c) => !reads.includes(c.method)),
    ...queue.calls.filter((c) => ['finish', 'finishMany', 'retry'].includes(c.method)),
  ];
  return { store, queue, scheduler, attempted, writes };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

describe('webhook scheduler stop (the drain)', () => {
  it('records an attempt under way as delivered before it resolves', async () => {
    const answer = deferred<Outcome>();
    const { scheduler, attempted, writes } = setup({ due: [delivery('d1')], attempt: () => answer.promise });
    scheduler.start();
    await until(() => attempted.length === 1);
    let stopped = false;
    const stopping = scheduler.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false);
    answer.resolve(delivered);
    await stopping;
    expect(writes().map((c) => c.method)).toEqual(['recordDelivered', 'finishMany']);
  });

  it('starts no delivery once it is told to stop: a claim on its way is handed back unattempted', async () => {
    const claim = deferred<DeliveryDoc>();
    const { scheduler, queue, attempted } = setup({ due: [claim.promise], attempt: async () => delivered });
    scheduler.start();
    await until(() => queue.calls.some((c) => c.method === 'claim'));
    const stopping = scheduler.stop();
    const before = Date.now();
    claim.resolve(delivery('d1'));
    await stopping;
    expect(attempted).toEqual([]);
    const handedBack = queue.calls.filter((c) => c.method === 'retry');
    expect(handedBack.map((c) => (c.args[0] as Claim).id)).toEqual(['d1']);
    expect(handedBack[0]!.args[1] as number).toBeLessThanOrEqual(Date.now());
    expect(handedBack[0]!.args[1] as number).toBeGreaterThanOrEqual(before);
  });

  it('retries an outcome write that fails, so that an answered delivery is not sent again', async () => {
    let failures = 1;
    const { scheduler, attempted, writes } = setup({
      due: [delivery('d1')],
      attempt: async () => delivered,
      recordDelivered: async () => {
        if (failures-- > 0) throw new Error('connection reset');
      },
    });
    scheduler.start();
    await until(() => attempted.length === 1);
    await scheduler.stop();
    expect(writes().map((c) => c.method)).toEqual(['recordDelivered', 'recordDelivered', 'finishMany']);
  });

  it('leaves a delivery it could not record leased, to go out again when the lease lapses', async () => {
    const { scheduler, attempted, writes } = setup({
      due: [delivery('d1')],
      leaseMs: 250,
      attempt: async () => delivered,
      recordDelivered: async () => {
        throw new Error('store away');
      },
    });
    scheduler.start();
    await until(() => attempted.length === 1);
    await scheduler.stop();
    // Retried while the lease held, then given up: nothing handed back or finished, nothing marked.
    const methods = writes().map((c) => c.method);
    expect(methods.length).toBeGreaterThan(1);
    expect(new Set(methods)).toEqual(new Set(['recordDelivered']));
  });

  it('waits no longer than its drain timeout for an attempt that does not end', async () => {
    const { scheduler, attempted } = setup({
      due: [delivery('d1')],
      attempt: () => new Promise<Outcome>(() => undefined),
      drainTimeoutMs: 50,
    });
    scheduler.start();
    await until(() => attempted.length === 1);
    const started = Date.now();
    await scheduler.stop();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('webhook scheduler concurrency', () => {
  it('gives an answered delivery’s place to the next claim while its outcome is written, up to a bound', async () => {
    const write = deferred<void>();
    const due = Array.from({ length: 40 }, (_, i) => delivery(`d${i}`));
    const { scheduler, attempted, store } = setup({
      due,
      attempt: async () => delivered,
      recordDelivered: () => write.promise,
    });
    scheduler.start();
    // Concurrency 4: sixteen answered deliveries (four times it) may wait for their writes, no more.
    await until(() => attempted.length === 16);
    await new Promise((r) => setTimeout(r, 30));
    expect(attempted.length).toBe(16);
    expect(scheduler.inFlight()).toBe(0);
    write.resolve();
    await until(() => attempted.length === 40);
    await scheduler.stop();
    expect(store.calls.filter((c) => c.method === 'recordDelivered').length).toBeGreaterThan(0);
  });
});
