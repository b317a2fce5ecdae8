import { MessageTypeNames } from '@platform/contracts';
import { withDeadline } from '@platform/errors';
import type { BackgroundTask } from '@platform/kafka';
import { outboxEvent } from '@platform/mongo';
import type {
  DispatchMethod,
  NotificationsStore,
  NotificationsWriter,
  OutgoingDoc,
  UnreadChange,
} from '@platform/notifications';
import type { Logger } from '@platform/telemetry';
import type { Kicker } from './handlers/deps.js';
import type { LaneLeases } from './lane-leases.js';

/** `unread`: a change of the recipient's unread count that the dispatcher began with its reads (the inbox method ends it). */
export type MethodSender = (doc: OutgoingDoc, hints?: { unread?: UnreadChange }) => Promise<'sent' | 'skipped'>;

export interface DispatcherOptions {
  store: NotificationsStore;
  writer: NotificationsWriter;
  senders: Record<DispatchMethod, MethodSender | null>;
  logger: Logger;
  /** Who works which lane, and when a lane falls due again (the platform's lease queue). */
  leases: LaneLeases;
  maxAttempts: number;
  retryBaseMs: number;
  /** How often due lanes are claimed from the queue. */
  sweepMs: number;
  /**
   * How often the queue is rebuilt from the store's due notifications (a Redis that lost its data, a process
   * that died between a notification's insert and its dispatch); default ten sweeps.
   */
  reconcileMs?: number;
  leaseMs: number;
  /** A method's try is abandoned (and retried) past this. */
  sendTimeoutMs?: number;
}

export interface Dispatcher extends Kicker, BackgroundTask {}

/** A notification with one delivery (and the notification's own fields) changed, as the store now has it. */
function withDelivery(
  doc: OutgoingDoc,
  index: number,
  delivery: Partial<OutgoingDoc['methods'][number]>,
  fields: Partial<OutgoingDoc>,
): OutgoingDoc {
  return { ...doc, ...fields, methods: doc.methods.map((d, i) => (i === index ? { ...d, ...delivery } : d)) };
}

const METHODS: readonly DispatchMethod[] = ['inbox', 'smtp', 'webhook'];
const MAX_RETRY_MS = 5 * 60_000;
/**
 * How many of a lane's waiting notifications one read takes: every method's head comes from it while the lane
 * has fewer waiting (a read per method and per notification sent otherwise, each a round trip to the store).
 */
const LANE_READ = 16;

const byNotificationId = (a: OutgoingDoc, b: OutgoingDoc) =>
  a.notification_id < b.notification_id ? -1 : a.notification_id > b.notification_id ? 1 : 0;
const headOf = (docs: OutgoingDoc[], method: DispatchMethod) =>
  docs.find((d) => d.pending_methods.includes(method)) ?? null;
/** A read of a lane as the whole of what waits on it (with a notification being queued), or null when it was cut at `LANE_READ`. */
function wholeLane(docs: OutgoingDoc[], queued?: OutgoingDoc | null): OutgoingDoc[] | null {
  if (docs.length >= LANE_READ) return null;
  if (queued && !docs.some((d) => d._id === queued._id)) return [...docs, queued].sort(byNotificationId);
  return docs;
}

/**
 * Sends queued notifications, each user's lane in the order it was queued, each method on its own (a failing
 * SMTP server holds back e-mails, not the inbox). One process at a time works a lane, under a lease in the
 * platform's lease queue (Redis) that it renews as it goes, so two replicas never send the same notification and
 * a crashed one's lanes are taken over when its lease runs out. A lane whose oldest notification waits for a
 * retry is queued again at that time. A paused deployment is left alone: its notifications wait, in order, for
 * the resume.
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
      if (queued)
        void queued.then(
          () => kick(lane),
          () => kick(lane),
        );
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
    // the next one). The lease, the pause flag and the lane's waiting notifications are read at once: the
    // latency of a notification's first frame is mostly these round trips. The lane may be read just before
    // another holder released it having sent some; for the inbox that is harmless (the insert is keyed by the
    // notification id), which is why only the inbox is sent from that read.
    const deploymentId = lane.slice(0, lane.indexOf(':'));
    // With a notification being queued, all of it runs beside the insert: the head read may come before the
    // insert is stored, and then the new notification is the head (a concurrent insert of an older one would
    // be missed as much after the insert as before). The unread count comes with the change of it that the
    // first inbox notification makes (begun here, ended by the inbox method; with 0 if none is sent).
    const state = () => Promise.all([store.settings.get(deploymentId), store.outgoing.lanePending(lane, LANE_READ)]);
    const beginning = writer.unread.begin(lane);
    let unread: UnreadChange | undefined;
    const endUnused = async () => {
      const change = unread;
      unread = undefined;
      if (change)
        await writer.unread
          .end(lane, change.token, 0)
          .catch((error: unknown) =>
            logger.warn(
              { err: error, lane },
              'ending an unread change failed; the count is read from the inbox until repaired',
            ),
          );
    };
    let leased: boolean;
    let settings: { notifier_paused: boolean };
    let waiting: OutgoingDoc[];
    let fresh: OutgoingDoc | null;
    try {
      [leased, [settings, waiting], unread, fresh] = await Promise.all([
        options.leases.hold(lane, options.leaseMs),
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
      options.leases.hold(lane, options.leaseMs).then(
        (kept) => {
          if (!kept) lost = true;
        },
        (error: unknown) => logger.warn({ err: error, lane }, 'lease renewal failed; retried at the next tick'),
      );
    }, options.leaseMs / 3);
    renewal.unref();
    // When the lane falls due again: its earliest retry once worked through; soon, if the drain ended early
    // (this process stopping, a failure); never while its deployment is paused (the resume dispatches it).
    let dueAgain: number | undefined = Date.now() + options.sweepMs;
    try {
      if (settings.notifier_paused) {
        dueAgain = undefined;
        return;
      }
      let retryAt: number | undefined;
      // The lane as read (null: each head is read from the store). A read that began before the lease was held
      // may still show what the former holder sent meanwhile: good for the inbox (its insert is keyed by the
      // notification id), not for an e-mail or a webhook, so past the inbox the lane is read again, once.
      let view = wholeLane(waiting, fresh);
      let leasedView = false;
      let prefetched: OutgoingDoc | null | undefined = view ? undefined : (headOf(waiting, METHODS[0]!) ?? undefined);
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
          const [now, docs] = await state();
          if (now.notifier_paused) {
            dueAgain = undefined;
            return;
          }
          view = wholeLane(docs);
          leasedView = true;
          prefetched = view ? undefined : (headOf(docs, METHODS[0]!) ?? undefined);
          m = 0;
          continue;
        }
        if (m > 0 && !leasedView) {
          view = wholeLane(await store.outgoing.lanePending(lane, LANE_READ));
          leasedView = true;
        }
        let head: OutgoingDoc | null;
        if (prefetched !== undefined) head = prefetched;
        else head = view ? headOf(view, method) : await store.outgoing.laneHead(lane, method);
        prefetched = undefined;
        // None left, or the oldest waits for its retry (later ones keep the order): the next method.
        if (!head) {
          m++;
          continue;
        }
        const index = head.methods.findIndex((d) => d.method === method && d.status === 'pending');
        const nextAttempt = head.methods[index]!.next_attempt_at.getTime();
        if (nextAttempt > Date.now()) {
          retryAt = Math.min(retryAt ?? Infinity, nextAttempt);
          m++;
          continue;
        }
        // The change begun with the drain's reads goes with the first inbox notification (its method ends it).
        const change = method === 'inbox' ? unread : undefined;
        if (change) unread = undefined;
        const after = await attempt(head, index, change);
        // The lane as it now is, or (someone else changed that notification) read from the store from now on.
        if (view) view = after ? view.map((d) => (d._id === after._id ? after : d)) : null;
      }
      dueAgain = retryAt;
    } finally {
      clearInterval(renewal);
      await endUnused();
      // A lane lost to another holder is not released: the release only acts for its holder anyway.
      await options.leases
        .release(lane, dueAgain)
        .catch((error: unknown) =>
          logger.warn({ err: error, lane }, 'releasing a lane failed; it is due again when its lease lapses'),
        );
    }
  }

  /** Tries one method of a notification and records the outcome: the notification as recorded, or null when it had changed meanwhile. */
  async function attempt(doc: OutgoingDoc, index: number, unread?: UnreadChange): Promise<OutgoingDoc | null> {
    const delivery = doc.methods[index]!;
    const sender = options.senders[delivery.method];
    const attempts = delivery.attempts + 1;
    const at = `methods.${index}`;
    let outcome: 'sent' | 'skipped' | 'failed' | 'retry';
    let error: string | null = null;
    try {
      outcome = sender
        ? await withDeadline(sender(doc, unread ? { unread } : {}), options.sendTimeoutMs ?? 30_000, 'sending')
        : 'skipped';
    } catch (caught) {
      error = (caught as Error).message;
      outcome = attempts >= options.maxAttempts ? 'failed' : 'retry';
    }
    const now = new Date();
    const filter = { _id: doc._id, [`${at}.status`]: 'pending', [`${at}.attempts`]: delivery.attempts };
    if (outcome === 'retry') {
      const next = new Date(now.getTime() + Math.min(MAX_RETRY_MS, options.retryBaseMs * 2 ** (attempts - 1)));
      const changed = await writer.outgoing.change(
        filter,
        {
          [`${at}.attempts`]: attempts,
          [`${at}.next_attempt_at`]: next,
          [`${at}.error`]: error,
          next_attempt_at: next,
        },
        [],
      );
      logger.warn(
        { notification_id: doc.notification_id, method: delivery.method, attempts, err: error },
        'sending a notification failed; retrying',
      );
      return changed
        ? withDelivery(doc, index, { attempts, next_attempt_at: next, error }, { next_attempt_at: next })
        : null;
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
    if (outcome === 'failed')
      logger.error(
        { notification_id: doc.notification_id, method: delivery.method, attempts, err: error },
        'gave up sending a notification',
      );
    return changed
      ? withDelivery(
          doc,
          index,
          { status: outcome, attempts, error, done_at: now },
          { pending: doc.pending - 1, pending_methods: doc.pending_methods.filter((x) => x !== delivery.method) },
        )
      : null;
  }

  const reconcileMs = options.reconcileMs ?? 10 * options.sweepMs;
  let lastReconcile = 0;

  /** Queues the lanes with due notifications that the queue may have lost (it skips those it holds). */
  async function reconcile(): Promise<void> {
    lastReconcile = Date.now();
    const due = await store.outgoing.dueLanes(new Date(), 200);
    if (due.length === 0) return;
    const paused = await store.settings.pausedAmong([...new Set(due.map((d) => d.deployment_id))]);
    await options.leases.schedule(due.filter((d) => !paused.has(d.deployment_id)).map((d) => d.lane));
  }

  async function sweep(): Promise<void> {
    if (Date.now() - lastReconcile >= reconcileMs) await reconcile();
    if (stopped) return;
    for (const lane of await options.leases.due(200, options.leaseMs)) kick(lane);
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
      for (const lane of await store.outgoing.pendingLanes(deploymentId)) kick(lane);
    },
    start() {
      stopped = false;
      lastReconcile = 0;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.allSettled([...inflight]);
    },
  };
}
