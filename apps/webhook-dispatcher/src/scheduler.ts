import { setTimeout as sleep } from 'node:timers/promises';
import type { Claim, LeaseQueue } from '@platform/redis';
import { metrics, type BatchObservableResult, type Logger } from '@platform/telemetry';
import {
  decide,
  deliveryFromBody,
  retryDelayMs,
  type DeliveryDoc,
  type DeliveryStore,
  type AttemptRecord,
  type AttemptResult,
  type EventPublisher,
} from '@platform/webhooks';
import { createGroupCommit } from './group-commit.js';

export interface SchedulerOptions {
  store: DeliveryStore;
  /** What is due and who holds it (Redis); the store keeps each delivery's record. */
  queue: LeaseQueue;
  attempt: (delivery: DeliveryDoc) => Promise<{ result: AttemptResult; record: AttemptRecord }>;
  /** Publishes the outcome events of deliveries on their first attempt at once, rather than through the outbox. */
  publish?: EventPublisher;
  logger: Logger;
  concurrency: number;
  timeoutMs: number;
  retryScale: number;
  pollIntervalMs: number;
  /**
   * How often the queue is rebuilt from the store's pending deliveries (scheduling skips what it holds): after
   * Redis lost its data, or a process died between a delivery's insert and its scheduling. Also at start, and
   * whenever Redis is reachable again.
   */
  reconcileIntervalMs: number;
  /** A target failing for longer than this is disabled and its producer told. */
  disableAfterMs: number;
  leaseGraceMs: number;
  /**
   * How long `stop` waits for the attempts under way and the writes of their outcomes: the part of the process's
   * shutdown timeout left to the drain. An attempt still unrecorded then keeps its lease and goes out again,
   * under the same webhook id, once the lease lapses.
   */
  drainTimeoutMs: number;
  /** Delay before each attempt (default: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  retrySchedule?: number[];
}

/**
 * Claims due deliveries from the lease queue in batches and attempts them without blocking any consumer: at most
 * `concurrency` in flight here, at most the queue's group limit per target across all replicas, so a slow target
 * never delays others. A claim is a lease: if this process dies mid-attempt, the lease lapses and any replica
 * retries.
 *
 * `stop` (SIGTERM) claims nothing more, hands back a claim that was on its way, and waits, within
 * `drainTimeoutMs`, for every attempt under way to be recorded: a delivery the target has answered is written
 * down before the store closes, so that the next dispatcher neither loses nor repeats it. A failed outcome write
 * is retried while the lease holds; one that cannot be made leaves the delivery pending and leased, to be
 * claimed again (at least once, the same webhook id) when the lease lapses.
 */
/** Attempts whose outcome is still being written, at most, as a multiple of `concurrency`: the store's backpressure. */
const MAX_UNRECORDED = 4;
const meter = metrics.getMeter('@platform/webhook-dispatcher');
const attempts = meter.createCounter('platform.webhook.attempts', { description: 'Delivery attempts, by decision' });
const attemptDuration = meter.createHistogram('platform.webhook.attempt.duration', { unit: 's' });
// Both read the queue in Redis, which every replica shares: aggregate them with max, not sum.
const queueDepth = meter.createObservableGauge('platform.webhook.queue.depth', {
  description: 'Deliveries in the lease queue, by state (queued: waiting for their time or their target; claimed)',
});
const queueLag = meter.createObservableGauge('platform.webhook.queue.lag', {
  unit: 's',
  description: 'How long the oldest delivery that could be attempted now (due, its target under its limit) has waited',
});

export function createScheduler(options: SchedulerOptions) {
  const { queue, store } = options;
  // Delivered attempts finishing together are recorded together: a few statements per batch, whatever its size,
  // then one queue call that finishes their claims (the record first: see `settle`).
  const delivered = createGroupCommit<{ delivery: DeliveryDoc; record: AttemptRecord; claim: Claim }>(
    async (outcomes) => {
      await store.recordDelivered(outcomes, options.publish ? { publish: options.publish } : {});
      await queue.finishMany(outcomes.map((o) => o.claim));
    },
  );
  const running = new Set<Promise<void>>();
  /** Vacates under way, with the claims they make (`handOver`). */
  const handing = new Set<Promise<void>>();
  /** Requests under way (at most `concurrency`); `running` also holds the attempts whose outcome is being written. */
  let attempting = 0;
  let active = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  /** When the drain gives up waiting (set by `stop`). */
  let drainEnds: number | undefined;
  // Two requests (an OAuth token, then the delivery) may each take the full timeout.
  const leaseMs = 2 * options.timeoutMs + options.leaseGraceMs;

  /** Until when an outcome write may be retried: while the claim's lease holds, and within the drain. */
  function writableUntil(claim: Claim): number {
    return drainEnds === undefined ? claim.lease : Math.min(claim.lease, drainEnds);
  }

  /**
   * One write of an outcome, retried on a store error (a timeout, a connection dropped under load): the target
   * has been called, and a write that is lost sends the webhook again. The writes are conditional on the
   * attempt count, so a retry of one that did land changes nothing.
   */
  async function persist<T>(claim: Claim, what: string, write: () => Promise<T>): Promise<T> {
    for (let retry = 0; ; retry++) {
      try {
        return await write();
      } catch (error) {
        const delay = Math.min(100 * 2 ** retry, 2000);
        if (Date.now() + delay >= writableUntil(claim)) throw error;
        options.logger.warn({ err: error, delivery: claim.id, write: what, delay }, 'outcome write failed; retrying');
        await sleep(delay);
      }
    }
  }

  async function settle(claim: Claim, delivery: DeliveryDoc) {
    let answered: Awaited<ReturnType<SchedulerOptions['attempt']>>;
    try {
      answered = await options.attempt(delivery);
    } catch (error) {
      attempting--;
      wake();
      throw error;
    }
    const { result, record } = answered;
    // The request is over: its place among the `concurrency` goes to the next claim while its outcome is written
    // (outcomes share their writes in groups: a place held until the write would cap the rate at `concurrency`
    // per group write, whatever the targets' speed). Its target's place too (the lease still holds the
    // delivery), and both in the same round trip: the next due delivery, of this target or another, is claimed
    // with the vacate.
    attempting--;
    handOver(claim);
    const decision = decide(result);
    attempts.add(1, { decision: decision.action });
    attemptDuration.record(record.latencyMs / 1000, { decision: decision.action });
    const log = options.logger.child({
      delivery: delivery._id,
      target: delivery.target.id,
      attempt: delivery.attempts + 1,
    });
    const write = <T>(what: string, change: () => Promise<T>) => persist(claim, what, change);
    // The record first, the queue second: a queue write that is lost leaves a lease to lapse, and the delivery,
    // claimed again, is found finished (or not yet due) in the store.
    const finish = () => write('dequeued', () => queue.finish(claim));
    switch (decision.action) {
      case 'delivered':
        await write('delivered', () => delivered.add({ delivery, record, claim }));
        log.info({ status: record.status, latency: record.latencyMs }, 'webhook delivered');
        break;
      case 'disable_target':
        await write('target disabled', () => store.disableTarget(delivery, record, `target answered ${record.status}`));
        await finish();
        await write('target dropped', () => queue.dropGroup(claim.group));
        log.warn({ status: record.status }, 'webhook target gone; disabled');
        break;
      case 'give_up': {
        const failing = await write('target failing', () => store.noteFailure(delivery, options.disableAfterMs));
        const events = failing.started ? [store.failingEvent(delivery, record)] : [];
        await write('dead-lettered', () => store.deadLetter(delivery, record, events));
        await finish();
        log.warn({ error: record.error }, 'webhook target refused; dead-lettered');
        break;
      }
      case 'retry': {
        const failing = await write('target failing', () => store.noteFailure(delivery, options.disableAfterMs));
        if (failing.expired) {
          const reason = `failing for more than ${Math.round(options.disableAfterMs / 1000)} s`;
          await write('target disabled', () => store.disableTarget(delivery, record, reason));
          await finish();
          await write('target dropped', () => queue.dropGroup(claim.group));
          log.warn({ status: record.status, error: record.error }, 'webhook target failing too long; disabled');
          break;
        }
        // The first failure of a streak tells the producer (TargetFailing), in the same write as the outcome.
        const events = failing.started ? [store.failingEvent(delivery, record)] : [];
        const scheduled = retryDelayMs(delivery.attempts - (delivery.schedule_offset ?? 0) + 2, {
          scale: options.retryScale,
          ...(options.retrySchedule ? { schedule: options.retrySchedule } : {}),
        });
        if (scheduled === undefined) {
          await write('dead-lettered', () => store.deadLetter(delivery, record, events));
          await finish();
          log.warn({ status: record.status, error: record.error }, 'webhook dead-lettered after last attempt');
          break;
        }
        const delay = Math.max(scheduled, decision.notBeforeMs ?? 0);
        const nextAt = new Date(Date.now() + delay);
        await write('retry scheduled', () => store.scheduleRetry(delivery, record, nextAt, events));
        await write('requeued', () => queue.retry(claim, nextAt.getTime()));
        log.info({ status: record.status, error: record.error, delay }, 'webhook attempt failed; retry scheduled');
        break;
      }
    }
  }

  /** Hands a claim back, due again at `at` (now: for any dispatcher); a failure lets its lease lapse instead. */
  async function handBack(claim: Claim, at = Date.now()) {
    await queue
      .retry(claim, at)
      .catch((error: unknown) => options.logger.warn({ err: error, delivery: claim.id }, 'handing back failed'));
  }

  function begin(claim: Claim, delivery: DeliveryDoc) {
    attempting++;
    const task: Promise<void> = settle(claim, delivery)
      .catch((error: unknown) => options.logger.error({ err: error, delivery: claim.id }, 'delivery attempt failed'))
      .finally(() => {
        running.delete(task);
        wake();
      });
    running.add(task);
  }

  /** Places among `concurrency` not taken by a request under way or a claim on its way (see `claimFor`). */
  const free = () =>
    active && running.size < options.concurrency * MAX_UNRECORDED
      ? Math.max(0, options.concurrency - attempting - reserved)
      : 0;
  let reserved = 0;

  /** Claims with the places free now held for them while the claim is on its way, so that two never overbook. */
  async function claimFor(claim: (most: number) => Promise<Claim[]>, most: number): Promise<Claim[]> {
    reserved += most;
    try {
      return await claim(most);
    } finally {
      reserved -= most;
    }
  }

  /**
   * Vacates an answered delivery's claim and starts what the same call claimed. The pump is woken only when
   * there may be more to claim (as many came as were asked for) or the call failed.
   */
  function handOver(claim: Claim) {
    const most = free();
    const task = claimFor((n) => queue.vacateAndClaim(claim, n, leaseMs), most)
      .then(async (claims) => {
        if (claims.length > 0) await startClaimed(claims);
        if (most > 0 && claims.length === most) wake();
      })
      .catch((error: unknown) => {
        options.logger.warn({ err: error, delivery: claim.id }, 'vacating a claim failed');
        wake();
      })
      .finally(() => handing.delete(task));
    handing.add(task);
  }

  /** Claims batches and starts their attempts, until full or nothing is due. */
  async function pumpOnce() {
    while (free() > 0) {
      const claims = await claimFor((most) => queue.claim(most, leaseMs), free());
      if (claims.length === 0) break;
      await startClaimed(claims);
    }
  }

  /**
   * Starts the attempts of claimed deliveries. A first claim of a new delivery carries it (the queue's body); the
   * others are read from the store, in one query.
   */
  async function startClaimed(claims: Claim[]) {
    const deliveries = new Map<string, DeliveryDoc>();
    const unread: Claim[] = [];
    for (const claim of claims) {
      if (claim.body === undefined) unread.push(claim);
      else deliveries.set(claim.id, deliveryFromBody(claim.body));
    }
    let readFailed: unknown;
    try {
      for (const d of await store.pendingByIds(unread.map((c) => c.id))) deliveries.set(d._id, d);
    } catch (error) {
      // The others are due again at the next poll; the carried ones go ahead.
      await Promise.all(unread.map((claim) => handBack(claim, Date.now() + options.pollIntervalMs)));
      readFailed = error;
    }
    for (const claim of readFailed === undefined ? claims : claims.filter((c) => c.body !== undefined)) {
      const delivery = deliveries.get(claim.id);
      if (!delivery) {
        // Finished meanwhile (a copy rebuilt from the store, a delivery archived): nothing to send.
        await queue.finish(claim);
      } else if (!active) {
        // Claimed while `stop` began: handed back unattempted, for the next dispatcher (or to lapse).
        await handBack(claim);
      } else if (delivery.next_attempt_at.getTime() > Date.now() + 1000) {
        // Queued earlier than its record says (a lease lapsed before its retry was queued): at its time.
        await handBack(claim, delivery.next_attempt_at.getTime());
      } else {
        begin(claim, delivery);
      }
    }
    if (readFailed !== undefined) throw readFailed;
  }

  let lastReconcile = 0;

  /** Queues again every pending delivery the queue lost (it skips those it holds). */
  async function reconcile() {
    lastReconcile = Date.now();
    const items = await store.pendingItems(new Date(Date.now() - 10_000));
    const added = await queue.schedule(items);
    if (added > 0) options.logger.warn({ added, pending: items.length }, 'lease queue rebuilt from the store');
  }

  let lastArchive = 0;
  let claimFailing = false;

  async function pump() {
    for (;;) {
      do {
        again = false;
        await pumpOnce().then(
          () => (claimFailing = false),
          (error: unknown) => {
            // Once per outage: the poll goes on every interval until Redis or the store answers again.
            if (!claimFailing) options.logger.error({ err: error }, 'claiming deliveries failed');
            claimFailing = true;
          },
        );
      } while (again && active);
      if (!active) return;
      if (Date.now() - lastArchive > 10 * options.pollIntervalMs) {
        lastArchive = Date.now();
        await store
          .archiveFinished()
          .catch((error: unknown) => options.logger.warn({ err: error }, 'archiving failed'));
      }
      if (Date.now() - lastReconcile > options.reconcileIntervalMs) {
        await reconcile().catch((error: unknown) => options.logger.warn({ err: error }, 'rebuilding the queue failed'));
      }
      const next = await queue.nextDueAt().catch(() => null);
      // A wake-up that arrived while we looked must not wait for the timer.
      if (again) continue;
      const wait = next ? Math.min(Math.max(next - Date.now(), 10), options.pollIntervalMs) : options.pollIntervalMs;
      clearTimeout(timer);
      timer = setTimeout(wake, wait);
      return;
    }
  }

  function wake() {
    if (!active) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = pump().finally(() => (pumping = undefined));
  }

  async function drain() {
    active = false;
    meter.removeBatchObservableCallback(observeDepth, [queueDepth, queueLag]);
    clearTimeout(timer);
    drainEnds = Date.now() + options.drainTimeoutMs;
    const recorded = (async () => {
      await pumping;
      // A vacate's claim may start attempts, and an attempt's end starts a vacate: until neither is left.
      while (handing.size > 0 || running.size > 0) await Promise.allSettled([...handing, ...running]);
    })();
    let deadline: NodeJS.Timeout | undefined;
    const timedOut = new Promise<true>((resolve) => {
      deadline = setTimeout(() => resolve(true), options.drainTimeoutMs);
    });
    const late = await Promise.race([recorded.then(() => false), timedOut]);
    clearTimeout(deadline);
    if (late) {
      options.logger.warn(
        { inFlight: running.size, drainTimeoutMs: options.drainTimeoutMs },
        'webhook attempts still under way at the end of the drain; they go out again when their leases lapse',
      );
    }
  }

  const observeDepth = async (observer: BatchObservableResult) => {
    const depth = await queue.depth().catch(() => undefined);
    if (!depth) return;
    observer.observe(queueDepth, depth.queued, { state: 'queued' });
    observer.observe(queueDepth, depth.claimed, { state: 'claimed' });
    const lag = depth.oldestReadyAt === null ? 0 : Math.max(0, Date.now() - depth.oldestReadyAt) / 1000;
    observer.observe(queueLag, lag);
  };

  return {
    start() {
      active = true;
      lastReconcile = 0;
      meter.addBatchObservableCallback(observeDepth, [queueDepth, queueLag]);
      wake();
    },
    /** Rebuilds the queue from the store at the next pump (Redis is reachable again, perhaps without its data). */
    reconcileSoon() {
      lastReconcile = 0;
      wake();
    },
    wake,
    /** Requests to targets under way. */
    inFlight: () => attempting,
    /** Claims nothing more and drains (see above); the same promise on every call. */
    stop() {
      stopping ??= drain();
      return stopping;
    },
  };
}
