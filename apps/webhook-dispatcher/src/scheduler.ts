import { setTimeout as sleep } from 'node:timers/promises';
import { metrics, type Logger } from '@platform/telemetry';
import {
  decide,
  retryDelayMs,
  type DeliveryDoc,
  type DeliveryStore,
  type AttemptRecord,
  type AttemptResult,
} from '@platform/webhooks';

export interface SchedulerOptions {
  store: DeliveryStore;
  attempt: (delivery: DeliveryDoc) => Promise<{ result: AttemptResult; record: AttemptRecord }>;
  afterOutcome: () => Promise<unknown>;
  logger: Logger;
  concurrency: number;
  perTargetConcurrency: number;
  timeoutMs: number;
  retryScale: number;
  pollIntervalMs: number;
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
 * Claims due deliveries from the due-time index and attempts them without blocking any consumer: at most
 * `concurrency` in flight, at most `perTargetConcurrency` per target, so a slow target never delays others.
 * A claim is a lease: if this process dies mid-attempt, the lease lapses and any replica retries.
 *
 * `stop` (SIGTERM) claims nothing more, hands back a claim that was on its way, and waits, within
 * `drainTimeoutMs`, for every attempt under way to be recorded: a delivery the target has answered is written
 * down before the store closes, so that the next dispatcher neither loses nor repeats it. A failed outcome write
 * is retried while the lease holds; one that cannot be made leaves the delivery pending and leased, to be
 * claimed again (at least once, the same webhook id) when the lease lapses.
 */
const meter = metrics.getMeter('@platform/webhook-dispatcher');
const attempts = meter.createCounter('platform.webhook.attempts', { description: 'Delivery attempts, by decision' });
const attemptDuration = meter.createHistogram('platform.webhook.attempt.duration', { unit: 's' });

export function createScheduler(options: SchedulerOptions) {
  const inFlightByTarget = new Map<string, number>();
  const running = new Set<Promise<void>>();
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
  function writableUntil(delivery: DeliveryDoc): number {
    const leaseEnds = new Date(delivery.lease_until).getTime();
    return drainEnds === undefined ? leaseEnds : Math.min(leaseEnds, drainEnds);
  }

  /**
   * One write of an outcome, retried on a store error (a timeout, a connection dropped under load): the target
   * has been called, and a write that is lost sends the webhook again. The writes are conditional on the
   * attempt count, so a retry of one that did land changes nothing.
   */
  async function persist<T>(delivery: DeliveryDoc, what: string, write: () => Promise<T>): Promise<T> {
    for (let retry = 0; ; retry++) {
      try {
        return await write();
      } catch (error) {
        const delay = Math.min(100 * 2 ** retry, 2000);
        if (Date.now() + delay >= writableUntil(delivery)) throw error;
        options.logger.warn(
          { err: error, delivery: delivery._id, write: what, delay },
          'outcome write failed; retrying',
        );
        await sleep(delay);
      }
    }
  }

  async function settle(delivery: DeliveryDoc) {
    const { result, record } = await options.attempt(delivery);
    const decision = decide(result);
    attempts.add(1, { decision: decision.action });
    attemptDuration.record(record.latencyMs / 1000, { decision: decision.action });
    const log = options.logger.child({
      delivery: delivery._id,
      target: delivery.target.id,
      attempt: delivery.attempts + 1,
    });
    switch (decision.action) {
      case 'delivered':
        await persist(delivery, 'delivered', () => options.store.markDelivered(delivery, record));
        await persist(delivery, 'target answering', () => options.store.noteSuccess(delivery));
        log.info({ status: record.status, latency: record.latencyMs }, 'webhook delivered');
        break;
      case 'disable_target':
        await persist(delivery, 'target disabled', () =>
          options.store.disableTarget(delivery, record, `target answered ${record.status}`),
        );
        log.warn({ status: record.status }, 'webhook target gone; disabled');
        break;
      case 'give_up': {
        const failing = await persist(delivery, 'target failing', () =>
          options.store.noteFailure(delivery, options.disableAfterMs),
        );
        const events = failing.started ? [options.store.failingEvent(delivery, record)] : [];
        await persist(delivery, 'dead-lettered', () => options.store.deadLetter(delivery, record, events));
        log.warn({ error: record.error }, 'webhook target refused; dead-lettered');
        break;
      }
      case 'retry': {
        const failing = await persist(delivery, 'target failing', () =>
          options.store.noteFailure(delivery, options.disableAfterMs),
        );
        if (failing.expired) {
          const reason = `failing for more than ${Math.round(options.disableAfterMs / 1000)} s`;
          await persist(delivery, 'target disabled', () => options.store.disableTarget(delivery, record, reason));
          log.warn({ status: record.status, error: record.error }, 'webhook target failing too long; disabled');
          break;
        }
        // The first failure of a streak tells the producer (TargetFailing), in the same write as the outcome.
        const events = failing.started ? [options.store.failingEvent(delivery, record)] : [];
        const scheduled = retryDelayMs(delivery.attempts - (delivery.schedule_offset ?? 0) + 2, {
          scale: options.retryScale,
          ...(options.retrySchedule ? { schedule: options.retrySchedule } : {}),
        });
        if (scheduled === undefined) {
          await persist(delivery, 'dead-lettered', () => options.store.deadLetter(delivery, record, events));
          log.warn({ status: record.status, error: record.error }, 'webhook dead-lettered after last attempt');
          break;
        }
        const delay = Math.max(scheduled, decision.notBeforeMs ?? 0);
        const nextAt = new Date(Date.now() + delay);
        await persist(delivery, 'retry scheduled', () => options.store.scheduleRetry(delivery, record, nextAt, events));
        log.info({ status: record.status, error: record.error, delay }, 'webhook attempt failed; retry scheduled');
        break;
      }
    }
    await options.afterOutcome();
  }

  function busyTargets(): string[] {
    return [...inFlightByTarget].filter(([, n]) => n >= options.perTargetConcurrency).map(([t]) => t);
  }

  async function pumpOnce() {
    while (active && running.size < options.concurrency) {
      const delivery = await options.store.claimDue(new Date(), leaseMs, busyTargets());
      if (!delivery) break;
      if (!active) {
        // Claimed while `stop` began: handed back unattempted, for the next dispatcher (or to lapse).
        await options.store
          .releaseClaim(delivery)
          .catch((error: unknown) => options.logger.warn({ err: error, delivery: delivery._id }, 'release failed'));
        break;
      }
      const target = delivery.target.id;
      inFlightByTarget.set(target, (inFlightByTarget.get(target) ?? 0) + 1);
      const task: Promise<void> = settle(delivery)
        .catch((error: unknown) =>
          options.logger.error({ err: error, delivery: delivery._id }, 'delivery attempt failed'),
        )
        .finally(() => {
          const left = (inFlightByTarget.get(target) ?? 1) - 1;
          if (left <= 0) inFlightByTarget.delete(target);
          else inFlightByTarget.set(target, left);
          running.delete(task);
          wake();
        });
      running.add(task);
    }
  }

  let lastArchive = 0;

  async function pump() {
    for (;;) {
      do {
        again = false;
        await pumpOnce().catch((error: unknown) => options.logger.error({ err: error }, 'claiming deliveries failed'));
      } while (again && active);
      if (!active) return;
      if (Date.now() - lastArchive > 10 * options.pollIntervalMs) {
        lastArchive = Date.now();
        await options.store
          .archiveFinished()
          .catch((error: unknown) => options.logger.warn({ err: error }, 'archiving failed'));
      }
      const next = await options.store.nextDueAt().catch(() => null);
      // A wake-up that arrived while we looked must not wait for the timer.
      if (again) continue;
      const wait = next
        ? Math.min(Math.max(next.getTime() - Date.now(), 10), options.pollIntervalMs)
        : options.pollIntervalMs;
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
    clearTimeout(timer);
    drainEnds = Date.now() + options.drainTimeoutMs;
    const recorded = (async () => {
      await pumping;
      await Promise.allSettled([...running]);
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

  return {
    start() {
      active = true;
      wake();
    },
    wake,
    inFlight: () => running.size,
    /** Claims nothing more and drains (see above); the same promise on every call. */
    stop() {
      stopping ??= drain();
      return stopping;
    },
  };
}
