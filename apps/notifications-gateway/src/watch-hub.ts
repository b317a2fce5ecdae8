import type { InboxFilter, InboxNotificationJson } from '@platform/notifications';
import { matchesFilter } from '@platform/notifications';
import type { Counter, Gauge } from './watch-metrics.js';

export interface WatchEvent {
  deploymentId: string;
  userId: string;
  notification: InboxNotificationJson;
  unreadCount: number;
}

export interface Subscriber {
  deploymentId: string;
  userId: string;
  filter: InboxFilter;
  /** Takes the event, or ends the stream itself when its reader is too far behind; never blocks the others. */
  deliver(event: WatchEvent): void;
  /** Ends the stream with a reason (the server is shutting down). */
  terminate(reason: string): void;
}

/**
 * The open watch streams of this replica, by user. Every replica sees every inbox event (a consumer group of
 * its own) and hands each to the streams of that user whose filters match, once: a redelivered event (the
 * outbox relay publishes at least once) is recognised by its notification id.
 */
/** Notification ids remembered to drop a redelivered event (events are at least once). */
const RECENT_IDS = 10_000;

export function createWatchHub(metrics?: { open: Gauge; delivered: Counter }) {
  const byUser = new Map<string, Set<Subscriber>>();
  const recent = new Set<string>();
  const keyOf = (deploymentId: string, userId: string) => `${deploymentId}:${userId}`;
  let total = 0;
  return {
    add(subscriber: Subscriber): () => void {
      const key = keyOf(subscriber.deploymentId, subscriber.userId);
      let set = byUser.get(key);
      if (!set) byUser.set(key, (set = new Set()));
      set.add(subscriber);
      total++;
      metrics?.open.set(total);
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        set.delete(subscriber);
        if (set.size === 0) byUser.delete(key);
        total--;
        metrics?.open.set(total);
      };
    },
    publish(event: WatchEvent): void {
      const id = event.notification.id;
      if (recent.has(id)) return;
      recent.add(id);
      if (recent.size > RECENT_IDS) recent.delete(recent.values().next().value!);
      const set = byUser.get(keyOf(event.deploymentId, event.userId));
      if (!set) return;
      const unread = { ...event.notification, read_at: null };
      // A copy: a subscriber closed for falling behind leaves the set while it is walked.
      let delivered = 0;
      for (const subscriber of [...set]) {
        if (!matchesFilter(subscriber.filter, unread)) continue;
        subscriber.deliver(event);
        delivered++;
      }
      if (delivered > 0) metrics?.delivered.add(delivered);
    },
    /** Ends every stream with a reason; clients reconnect to another replica. */
    closeAll(reason: string): void {
      for (const set of byUser.values()) for (const subscriber of [...set]) subscriber.terminate(reason);
    },
    get size() {
      return total;
    },
    /** The open streams of one user on this replica (what a test waits for before it sends). */
    streamsOf(deploymentId: string, userId: string): number {
      return byUser.get(keyOf(deploymentId, userId))?.size ?? 0;
    },
  };
}

export type WatchHub = ReturnType<typeof createWatchHub>;
