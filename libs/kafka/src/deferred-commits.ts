import type { Consumer } from 'kafkajs';
import type { Logger } from '@platform/telemetry';

/** Offsets handled and not committed yet, committed together once per interval (`<topic>:<partition>` keys). */
export interface DeferredCommits {
  /** Whether this member was assigned the partition at its last join (what it handled of others is not its to commit). */
  owns(key: string): boolean;
  has(key: string): boolean;
  /** Records the partition's next offset to commit; the commit follows within the interval. */
  defer(topic: string, partition: number, offset: string): void;
  /** Commits what is deferred (of one partition, or of all, none of a partition handed over) in one request; never rejects. */
  flush(only?: string): Promise<void>;
  /** Stops the timer and commits what is left. */
  stop(): Promise<void>;
}

/**
 * Each commit is a request and an append to the broker's offsets log: a consumer that commits after every fetch
 * pays one per message when it keeps up with its topic. Deferring them costs a crash or a rebalance the
 * redelivery of what was handled since the last commit, which every consumer tolerates. What was handled
 * before a rebalance is committed while this member still owns it (best effort); a partition handed over is
 * never committed by its former owner, whose offset could be behind the new owner's.
 */
export function deferredCommits(consumer: Consumer, options: { intervalMs: number; logger: Logger }): DeferredCommits {
  const deferred = new Map<string, { topic: string; partition: number; offset: string }>();
  let assigned = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    assigned = new Set(
      Object.entries(payload.memberAssignment).flatMap(([topic, partitions]) => partitions.map((p) => `${topic}:${p}`)),
    );
  });

  async function flush(only?: string): Promise<void> {
    const entries: Array<[string, { topic: string; partition: number; offset: string }]> = [];
    for (const [key, entry] of deferred) {
      if (only !== undefined && key !== only) continue;
      deferred.delete(key);
      if (assigned.has(key)) entries.push([key, entry]);
    }
    if (entries.length === 0) return;
    try {
      await consumer.commitOffsets(entries.map(([, entry]) => entry));
    } catch (error) {
      // Put back what nothing newer has replaced: the next commit carries it (else it is read again after a restart).
      for (const [key, entry] of entries) if (!deferred.has(key)) deferred.set(key, entry);
      options.logger.warn(
        { err: error, partitions: entries.length },
        'deferred commit failed: retried with the next one',
      );
    }
  }
  consumer.on(consumer.events.REBALANCING, () => void flush());

  return {
    owns: (key) => assigned.has(key),
    has: (key) => deferred.has(key),
    defer(topic, partition, offset) {
      deferred.set(`${topic}:${partition}`, { topic, partition, offset });
      if (!timer) {
        timer = setTimeout(() => {
          timer = undefined;
          void flush();
        }, options.intervalMs);
        timer.unref();
      }
    },
    flush,
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await flush();
    },
  };
}
