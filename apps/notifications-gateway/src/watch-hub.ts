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
 * its own) and hands each to the streams of that user whose filters match.
 */
export function createWatchHub(metrics?: { open: Gauge; delivered: Counter }) {
  const byUser = new Map<string, Set<Subscriber>>();
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
      const set = byUser.get(keyOf(event.deploymentId, event.userId));
      if (!set) return;
      for (const subscriber of [...set]) {
        if (!matchesFilter(subscriber.filter, { ...event.notification, read_at: null })) continue;
        subscriber.deliver(event);
        metrics?.delivered.add(1);
      }
    },
    /** Ends every stream with a reason; clients reconnect to another replica. */
    closeAll(reason: string): void {
      for (const set of byUser.values()) for (const subscriber of [...set]) subscriber.terminate(reason);
    },
    get size() {
      return total;
    },
  };
}

export type WatchHub = ReturnType<typeof createWatchHub>;
