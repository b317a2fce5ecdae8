import { MessageTypeNames } from '@platform/contracts';
import type { BackgroundTask, Touched } from '@platform/kafka';
import { outboxEvent } from '@platform/mongo';
import type { DispatchMethod, NotificationsStore, NotificationsWriter, OutgoingDoc, UnreadChange } from '@platform/notifications';
import type { Logger } from '@platform/telemetry';
import type { Kicker } from './handlers/deps.js';

/** `unread`: a change of the recipient's unread count that the dispatcher began with its reads (the inbox method ends it). */
export type MethodSender = (doc: OutgoingDoc, hints?: { unread?: UnreadChange }) => Promise<'sent' | 'skipped'>;

export interface DispatcherOptions {
  store: NotificationsStore;
  writer: NotificationsWriter;
  senders: Record<DispatchMethod, MethodSender | null>;
  /** Names a document that received events, so the relay publishes them at once. */
  touched: Touched;
  logger: Logger;
  holder: string;
  maxAttempts: number;
  retryBaseMs: number;
  sweepMs: number;
  leaseMs: number;
  /** A method's try is abandoned (and retried) past this. */
  sendTimeoutMs?: number;
}

export interface Dispatcher extends Kicker, BackgroundTask {}

const METHODS: readonly DispatchMethod[] = ['inbox', 'smtp', 'webhook'];
const MAX_RETRY_MS = 5 * 60_000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Sends queued notifications, each user's lane in the order it was queued, each method on its own (a failing
 * SMTP server holds back e-mails, not the inbox). One process at a time works a lane, under a lease that it
 * renews as it goes, so two replicas never send the same notification and a crashed one's lanes are taken over
 * when its lease runs out. A paused deployment is left alone: its notifications wait, in order, for the resume.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { store, writer, logger } = options;
  const running = new Set<string>();
  const again = new Set<string>();
  const inflight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;

  function kick(lane: string, queued?: Promise<OutgoingDoc | null>): void {
    if (stopped) return;
    if (running.has(lane)) {
      // The running drain may look at the lane before that notification is stored: look again once it is.
      if (queued) void queued.then(() => kick(lane), () => kick(lane));
      else again.add(lane);
      return;
    }
    running.add(lane);
    const work = (async () => {
      try {
        let fresh = queued;
        do {
          again.delete(lane);
          await drain(lane, fresh);
          fresh = undefined;
        } while (again.has(lane) && !stopped);
      } catch (error) {
        logger.error({ err: error, lane }, 'dispatching a lane failed; the sweep tries again');
      } finally {
        running.delete(lane);
      }
    })();
    inflight.add(work);
    void work.finally(() => inflight.delete(work));
  }

  async function drain(lane: string, queued?: Promise<OutgoingDoc | null>): Promise<void> {
    // A lane is one deployment's (`<deployment>:<user>`): its pause flag is read once a drain (a pause stops
    // the next one). The lease, the pause flag and the inbox head are read at once: the latency of a
    // notification's first frame is mostly these round trips. The head may be read just before another holder
    // released the lane having sent it; for the inbox that is harmless (the insert is keyed by the
    // notification id), which is why only the inbox head is read ahead.
    const deploymentId = lane.slice(0, lane.indexOf(':'));
    // With a notification being queued, all of it runs beside the insert: the head read may come before the
    // insert is stored, and then the new notification is the head (a concurrent insert of an older one would
    // be missed as much after the insert as before). The unread count comes with the change of it that the
    // first inbox notification makes (begun here, ended by the inbox method; with 0 if none is sent).
    const state = () => Promise.all([store.settings(deploymentId), store.laneHead(lane, METHODS[0]!)]);
    const beginning = writer.unread.begin(lane);
    let unread: UnreadChange | undefined;
    const endUnused = async () => {
      const change = unread;
      unread = undefined;
      if (change) await writer.unread.end(lane, change.token, 0).catch((error: unknown) => logger.warn({ err: error, lane }, 'ending an unread change failed; the count is read from the inbox until repaired'));
    };
    let leased: boolean;
    let settings: { notifier_paused: boolean };
    let first: OutgoingDoc | null;
    let fresh: OutgoingDoc | null;
    try {
      [leased, [settings, first], unread, fresh] = await Promise.all([
        writer.leaseLane(lane, options.holder, options.leaseMs),
        state(),
        beginning,
        queued?.catch(() => null) ?? null,
      ]);
    } catch (error) {
      unread = await beginning.catch(() => undefined);
      await endUnused();
      throw error;
    }
    if (!leased) {
      await endUnused();
      return;
    }
    // The lease is renewed on a timer, a third of it apart, while the lane is worked: one try of a method may
    // last longer than the lease (up to `sendTimeoutMs`: a slow SMTP server), and a lease that ran out in
    // the middle of it would let another replica send the same notification. A renewal that finds the lane
    // taken (this process could not reach the store in time) stops the drain after the try in hand.
    let lost = false;
    const renewal = setInterval(() => {
      writer.leaseLane(lane, options.holder, options.leaseMs).then(
        (kept) => {
          if (!kept) lost = true;
        },
        (error: unknown) => logger.warn({ err: error, lane }, 'lease renewal failed; retried at the next tick'),
      );
    }, options.leaseMs / 3);
    renewal.unref();
    try {
      if (settings.notifier_paused) return;
      let prefetched: OutgoingDoc | null | undefined = first ?? fresh;
      let m = 0;
      while (m < METHODS.length) {
        if (stopped || lost) return;
        const method = METHODS[m]!;
        // Past the inbox, the change begun with the reads is ended: the count before it would be stale by the
        // time a notification queued meanwhile reaches the inbox, and readers count the inbox while it is open.
        if (m > 0) await endUnused();
        // A notification queued while the others go out by their slower methods goes to the inbox (and the
        // watch streams) first. Taking the flag here spares the drain that would otherwise follow this one.
        if (m > 0 && again.delete(lane)) {
          const [now, head] = await state();
          if (now.notifier_paused) return;
          prefetched = head;
          m = 0;
          continue;
        }
        const head = prefetched !== undefined ? prefetched : await store.laneHead(lane, method);
        prefetched = undefined;
        // None left, or the oldest waits for its retry (later ones keep the order): the next method.
        if (!head) {
          m++;
          continue;
        }
        const index = head.methods.findIndex((d) => d.method === method && d.status === 'pending');
        if (head.methods[index]!.next_attempt_at.getTime() > Date.now()) {
          m++;
          continue;
        }
        // The change begun with the drain's reads goes with the first inbox notification (its method ends it).
        const change = method === 'inbox' ? unread : undefined;
        if (change) unread = undefined;
        await attempt(head, index, change);
      }
    } finally {
      clearInterval(renewal);
      await endUnused();
      // A lane lost to another holder is not released: the delete only matches this holder's lease anyway.
      await writer.releaseLane(lane, options.holder).catch(() => undefined);
    }
  }

  async function attempt(doc: OutgoingDoc, index: number, unread?: UnreadChange): Promise<void> {
    const delivery = doc.methods[index]!;
    const sender = options.senders[delivery.method];
    const attempts = delivery.attempts + 1;
    const at = `methods.${index}`;
    let outcome: 'sent' | 'skipped' | 'failed' | 'retry';
    let error: string | null = null;
    try {
      outcome = sender ? await withTimeout(sender(doc, unread ? { unread } : {}), options.sendTimeoutMs ?? 30_000) : 'skipped';
    } catch (caught) {
      error = (caught as Error).message;
      outcome = attempts >= options.maxAttempts ? 'failed' : 'retry';
    }
    const now = new Date();
    const filter = { _id: doc._id, [`${at}.status`]: 'pending', [`${at}.attempts`]: delivery.attempts };
    if (outcome === 'retry') {
      const next = new Date(now.getTime() + Math.min(MAX_RETRY_MS, options.retryBaseMs * 2 ** (attempts - 1)));
      await writer.outgoing.change(filter, { [`${at}.attempts`]: attempts, [`${at}.next_attempt_at`]: next, [`${at}.error`]: error, next_attempt_at: next }, []);
      logger.warn({ notification_id: doc.notification_id, method: delivery.method, attempts, err: error }, 'sending a notification failed; retrying');
      return;
    }
    const event = outboxEvent(MessageTypeNames.NotificationDispatched, doc.user_id, {
      deployment_id: doc.deployment_id,
      user_id: doc.user_id,
      message_id: `${doc._id}:${delivery.method}`,
      notification_id: doc.notification_id,
      template_id: doc.template_id,
      method: delivery.method,
      outcome,
      attempts,
      error,
      occurred_at: now.getTime(),
    });
    const changed = await writer.outgoing.change(
      filter,
      { [`${at}.status`]: outcome, [`${at}.attempts`]: attempts, [`${at}.error`]: error, [`${at}.done_at`]: now },
      [event],
      { $inc: { pending: -1 }, $pull: { pending_methods: delivery.method } },
    );
    if (changed) options.touched(writer.outgoing.source, doc._id, [event]);
    if (outcome === 'failed') logger.error({ notification_id: doc.notification_id, method: delivery.method, attempts, err: error }, 'gave up sending a notification');
  }

  async function sweep(): Promise<void> {
    const due = await store.dueLanes(new Date(), 200);
    if (due.length === 0) return;
    const paused = await store.pausedAmong([...new Set(due.map((d) => d.deployment_id))]);
    for (const { lane, deployment_id } of due) if (!paused.has(deployment_id)) kick(lane);
  }

  function schedule(): void {
    timer = setTimeout(() => {
      sweep()
        .catch((error: unknown) => logger.warn({ err: error }, 'the dispatch sweep failed'))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, options.sweepMs);
    timer.unref();
  }

  return {
    kick,
    async kickDeployment(deploymentId) {
      for (const lane of await store.pendingLanes(deploymentId)) kick(lane);
    },
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([...inflight]);
    },
  };
}
