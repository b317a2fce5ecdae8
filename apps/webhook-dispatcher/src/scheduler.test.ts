import { describe, expect, it } from 'vitest';
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

function delivery(id: string, leaseMs = 60_000): DeliveryDoc {
  return {
    _id: id,
    target: { id: 't1' },
    attempts: 0,
    schedule_offset: 0,
    lease_until: new Date(Date.now() + leaseMs),
  } as DeliveryDoc;
}

/** A scheduler over a fake store that hands out `due` once each, then nothing; the attempt is the test's. */
function setup(options: {
  due: Array<DeliveryDoc | Promise<DeliveryDoc | null>>;
  attempt: (d: DeliveryDoc) => Promise<Outcome>;
  markDelivered?: () => Promise<void>;
  drainTimeoutMs?: number;
}) {
  const queue = [...options.due];
  const store = fake<DeliveryStore>({
    claimDue: async () => (await queue.shift()) ?? null,
    releaseClaim: async () => undefined,
    markDelivered: options.markDelivered ?? (async () => undefined),
    noteSuccess: async () => undefined,
    nextDueAt: async () => null,
    archiveFinished: async () => undefined,
  });
  const attempted: string[] = [];
  const scheduler = createScheduler({
    store,
    attempt: (d) => {
      attempted.push(d._id);
      return options.attempt(d);
    },
    afterOutcome: async () => undefined,
    logger: createLogger({ name: 'test', level: 'silent' }),
    concurrency: 4,
    perTargetConcurrency: 4,
    timeoutMs: 1000,
    retryScale: 1,
    pollIntervalMs: 10_000,
    disableAfterMs: 60_000,
    leaseGraceMs: 1000,
    drainTimeoutMs: options.drainTimeoutMs ?? 5000,
  });
  const writes = () => store.calls.filter((c) => !['claimDue', 'nextDueAt', 'archiveFinished'].includes(c.method));
  return { store, scheduler, attempted, writes };
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
    expect(writes().map((c) => c.method)).toEqual(['markDelivered', 'noteSuccess']);
  });

  it('starts no delivery once it is told to stop: a claim on its way is handed back unattempted', async () => {
    const claim = deferred<DeliveryDoc | null>();
    const { scheduler, store, attempted } = setup({ due: [claim.promise], attempt: async () => delivered });
    scheduler.start();
    await until(() => store.calls.some((c) => c.method === 'claimDue'));
    const stopping = scheduler.stop();
    claim.resolve(delivery('d1'));
    await stopping;
    expect(attempted).toEqual([]);
    expect(store.calls.filter((c) => c.method === 'releaseClaim').map((c) => (c.args[0] as DeliveryDoc)._id)).toEqual([
      'd1',
    ]);
  });

  it('retries an outcome write that fails, so that an answered delivery is not sent again', async () => {
    let failures = 1;
    const { scheduler, attempted, writes } = setup({
      due: [delivery('d1')],
      attempt: async () => delivered,
      markDelivered: async () => {
        if (failures-- > 0) throw new Error('connection reset');
      },
    });
    scheduler.start();
    await until(() => attempted.length === 1);
    await scheduler.stop();
    expect(writes().map((c) => c.method)).toEqual(['markDelivered', 'markDelivered', 'noteSuccess']);
  });

  it('leaves a delivery it could not record leased, to go out again when the lease lapses', async () => {
    const { scheduler, attempted, writes } = setup({
      due: [delivery('d1', 250)],
      attempt: async () => delivered,
      markDelivered: async () => {
        throw new Error('store away');
      },
    });
    scheduler.start();
    await until(() => attempted.length === 1);
    await scheduler.stop();
    // Retried while the lease held, then given up: nothing released, nothing marked.
    const methods = writes().map((c) => c.method);
    expect(methods.length).toBeGreaterThan(1);
    expect(new Set(methods)).toEqual(new Set(['markDelivered']));
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
