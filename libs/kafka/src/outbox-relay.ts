import type { MessageType } from '@platform/contracts';
import type { Logger } from '@platform/telemetry';
import type { OutgoingMessage, Publisher } from './publisher.js';

/** An event written in the same document as the state change it reports (transactional outbox). */
export interface OutboxEntry {
  id: string;
  topic: string;
  key: string;
  type: MessageType;
  value: unknown;
  /** Trace context captured when the entry was written. */
  headers?: Record<string, string>;
}

export interface OutboxSource {
  name: string;
  /** Documents that still hold unpublished entries, oldest first. */
  pending(limit: number): Promise<Array<{ docId: string; entries: OutboxEntry[] }>>;
  /** Removes exactly these entries (as returned by `pending`). */
  acknowledge(docId: string, entries: OutboxEntry[]): Promise<void>;
  /** Acknowledges several documents in one store round trip (optional: without it, one `acknowledge` each). */
  acknowledgeMany?(docs: Array<{ docId: string; entries: OutboxEntry[] }>): Promise<void>;
  /** The pending entries of these documents only (primary-key lookups: no scan). */
  pendingIn?(docIds: string[]): Promise<Array<{ docId: string; entries: OutboxEntry[] }>>;
  /**
   * Tells the relay of each document this process's writers store entries in, once stored (with the entries
   * when the write spelled them out); returns the function that stops telling. Without it, the sweep finds them.
   */
  watch?(listener: (docId: string | undefined, entries: OutboxEntry[] | undefined) => void): () => void;
}

/** An entry as the message that publishes it: its stored id is the event id, which consumers deduplicate by. */
export function outboxMessage(entry: OutboxEntry): OutgoingMessage {
  return {
    topic: entry.topic,
    key: entry.key,
    type: entry.type,
    value: entry.value as never,
    id: entry.id,
    headers: entry.headers ?? {},
  };
}

/** A document known to have just received outbox entries. */
export interface OutboxHint {
  source: string;
  docId: string;
  /**
   * The entries it just received, when the writer has them at hand: they are published without reading the
   * document back (one store round trip less between a write and its event), then acknowledged as usual.
   */
  entries?: OutboxEntry[];
}

/** How many published entry ids the relay remembers, so that a sweep and a hinted run never publish one twice. */
const REMEMBERED = 10_000;

/**
 * How long a hinted run's acknowledgement waits for others to share its store write. The events are out
 * already; only the clearing of their outbox waits (a crash meanwhile re-publishes them, which consumers
 * dedupe). Documents written one at a time (a partition's commands, handled in turn) are otherwise acknowledged
 * one at a time: two statements each on the local store.
 */
const ACK_GATHER_MS = 50;

export interface OutboxRelay {
  /** Publish what is pending now (called right after a write, so events do not wait for the sweep). */
  flush(): Promise<number>;
  /**
   * Asks for a drain soon without waiting for it (many callers coalesce into one drain). With hints, only
   * those documents are read (by id); the periodic sweep still covers anything a crash left behind.
   */
  wake(hints?: OutboxHint[]): void;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Publishes outbox entries with their stored id as the event id, then removes them. A crash between
 * publish and acknowledge re-publishes the same ids, which consumers dedupe.
 */
export function createOutboxRelay(options: {
  publisher: Publisher;
  sources: OutboxSource[];
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
  /** ACK_GATHER_MS unless given (0: acknowledged as soon as published). */
  ackGatherMs?: number;
}): OutboxRelay {
  const batchSize = options.batchSize ?? 100;
  const ackGatherMs = options.ackGatherMs ?? ACK_GATHER_MS;
  let timer: NodeJS.Timeout | undefined;
  let unwatch: Array<() => void> = [];
  let inFlight: Promise<number> | undefined;
  let again = false;
  // The sweep and the hinted runs that read never overlap: both would read a document before either
  // acknowledged it, and publish its events twice (consumers dedupe, but a duplicate is still work and noise).
  let turn: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = turn.then(work);
    turn = run.catch(() => undefined);
    return run;
  }

  // Ids this relay published lately. A hinted run publishes entries it was handed, not read: the sweep may
  // have published (and acknowledged) them just before; and an acknowledgement that missed (entries in memory
  // are compared with the stored ones) leaves them for the sweep, which then only acknowledges them.
  const published = new Set<string>();
  function remember(entries: OutboxEntry[]): void {
    for (const e of entries) published.add(e.id);
    for (const id of published) {
      if (published.size <= REMEMBERED) break;
      published.delete(id);
    }
  }

  type PendingDoc = { docId: string; entries: OutboxEntry[] };

  async function publish(docs: PendingDoc[]): Promise<void> {
    const fresh = docs.flatMap((d) => d.entries.filter((e) => !published.has(e.id)));
    if (fresh.length > 0) {
      await options.publisher.publishMany(fresh.map(outboxMessage));
      remember(fresh);
    }
  }

  async function acknowledge(source: OutboxSource, docs: PendingDoc[]): Promise<void> {
    if (source.acknowledgeMany && docs.length > 1) await source.acknowledgeMany(docs);
    else for (const d of docs) await source.acknowledge(d.docId, d.entries);
  }

  async function publishAndAcknowledge(source: OutboxSource, docs: PendingDoc[]): Promise<number> {
    if (docs.length === 0) return 0;
    await publish(docs);
    await acknowledge(source, docs);
    return docs.reduce((count, d) => count + d.entries.length, 0);
  }

  async function drain(): Promise<number> {
    let count = 0;
    for (const source of options.sources) {
      for (;;) {
        const docs = await source.pending(batchSize);
        if (docs.length === 0) break;
        // Documents a hinted run holds are its to publish and acknowledge: acknowledged twice, the second
        // acknowledgement finds nothing to clear and costs the store two more statements.
        const unclaimed = docs.filter((d) => !claimed.has(claimKey(source.name, d.docId)));
        if (unclaimed.length > 0) count += await publishAndAcknowledge(source, unclaimed);
        if (docs.length < batchSize || unclaimed.length === 0) break;
      }
    }
    return count;
  }

  /** Per source, the hinted documents; with the entries they received when every hint of theirs had them. */
  const hinted = new Map<string, Map<string, OutboxEntry[] | null>>();
  /** The documents hinted and not yet acknowledged by their hinted run, which the sweep leaves to it. */
  const claimed = new Set<string>();
  const claimKey = (source: string, docId: string) => `${source}\u0000${docId}`;
  let hintedRun: Promise<void> | undefined;

  /** Hinted runs' published documents waiting for their acknowledgement, per source, and how many per claim. */
  const unacknowledged = new Map<string, PendingDoc[]>();
  const heldForAck = new Map<string, number>();
  const acknowledging = new Set<Promise<void>>();
  let ackTimer: NodeJS.Timeout | undefined;

  /** A claim ends once its document is neither hinted again nor waiting for an acknowledgement. */
  function release(name: string, docId: string): void {
    const key = claimKey(name, docId);
    if (hinted.get(name)?.has(docId) || (heldForAck.get(key) ?? 0) > 0) return;
    claimed.delete(key);
  }

  function acknowledgeSoon(source: OutboxSource, docs: PendingDoc[]): void {
    if (docs.length === 0) return;
    let waiting = unacknowledged.get(source.name);
    if (!waiting) unacknowledged.set(source.name, (waiting = []));
    for (const d of docs) {
      const key = claimKey(source.name, d.docId);
      heldForAck.set(key, (heldForAck.get(key) ?? 0) + 1);
      waiting.push(d);
    }
    if (waiting.length >= batchSize || ackGatherMs === 0) void acknowledgeWaiting();
    else ackTimer ??= setTimeout(() => void acknowledgeWaiting(), ackGatherMs);
  }

  /** Acknowledges every waiting document, a store write per source; a failure leaves them to the sweep. */
  function acknowledgeWaiting(): Promise<void> {
    if (ackTimer) clearTimeout(ackTimer);
    ackTimer = undefined;
    const work = [...unacknowledged.entries()];
    unacknowledged.clear();
    const run = Promise.all(
      work.map(async ([name, docs]) => {
        try {
          await acknowledge(
            options.sources.find((s) => s.name === name)!,
            docs,
          );
        } catch (error) {
          options.logger.warn({ err: error, source: name }, 'outbox acknowledgement failed; the sweep will retry');
        } finally {
          for (const d of docs) {
            const key = claimKey(name, d.docId);
            const held = (heldForAck.get(key) ?? 1) - 1;
            if (held > 0) heldForAck.set(key, held);
            else heldForAck.delete(key);
            release(name, d.docId);
          }
        }
      }),
    ).then(() => undefined);
    acknowledging.add(run);
    void run.finally(() => acknowledging.delete(run));
    return run;
  }

  /** Drains hinted documents only, one run at a time; hints arriving meanwhile join the next run. */
  async function drainHinted(): Promise<void> {
    while (hinted.size > 0) {
      const batch = [...hinted.entries()];
      hinted.clear();
      try {
        for (const [name, docs] of batch) {
          const source = options.sources.find((s) => s.name === name);
          if (!source?.pendingIn) continue;
          const toRead = [...docs].filter(([, entries]) => entries === null).map(([docId]) => docId);
          const given = [...docs].flatMap(([docId, entries]) => (entries ? [{ docId, entries }] : []));
          // Entries handed over do not wait behind a sweep's reads (the tail of a watch stream's latency was
          // that wait): a sweep running meanwhile may publish them as well, which consumers dedupe.
          await Promise.all([
            publish(given).then(() => acknowledgeSoon(source, given)),
            toRead.length > 0
              ? exclusive(async () => {
                  const read = await source.pendingIn!(toRead);
                  await publish(read);
                  acknowledgeSoon(source, read);
                })
              : undefined,
          ]);
        }
      } finally {
        // Released on failure too, so that the sweep finds what is left; a document hinted again meanwhile
        // stays claimed by the next run, one published stays claimed until it is acknowledged.
        for (const [name, docs] of batch) {
          for (const docId of docs.keys()) release(name, docId);
        }
      }
    }
  }

  function scheduleHinted(): void {
    hintedRun ??= drainHinted()
      .catch((error: unknown) => options.logger.error({ err: error }, 'outbox relay failed'))
      .finally(() => {
        hintedRun = undefined;
        if (hinted.size > 0) scheduleHinted();
      });
  }

  async function flush(): Promise<number> {
    if (inFlight) {
      again = true;
      return inFlight;
    }
    inFlight = (async () => {
      let total = 0;
      do {
        again = false;
        total += await exclusive(drain);
      } while (again);
      return total;
    })().finally(() => (inFlight = undefined));
    return inFlight;
  }

  function wake(hints?: OutboxHint[]): void {
    const usable = hints?.filter((h) => options.sources.some((s) => s.name === h.source && s.pendingIn));
    if (!usable || usable.length === 0 || usable.length !== hints?.length) {
      flush().catch((error: unknown) => options.logger.error({ err: error }, 'outbox relay failed'));
      return;
    }
    for (const h of usable) {
      let docs = hinted.get(h.source);
      if (!docs) hinted.set(h.source, (docs = new Map()));
      claimed.add(claimKey(h.source, h.docId));
      const before = docs.get(h.docId);
      // A document hinted twice, once without its entries, is read: it may hold more than either hint knows.
      docs.set(
        h.docId,
        h.entries && h.entries.length > 0 && before !== null ? [...(before ?? []), ...h.entries] : null,
      );
    }
    scheduleHinted();
  }

  return {
    flush,
    wake,
    start() {
      // The writers of this process tell the relay what they stored: their events go out at once.
      unwatch = options.sources.flatMap((source) =>
        source.watch
          ? [
              source.watch((docId, entries) =>
                wake(
                  docId === undefined ? undefined : [{ source: source.name, docId, ...(entries ? { entries } : {}) }],
                ),
              ),
            ]
          : [],
      );
      const tick = () => {
        flush()
          .catch((error: unknown) => options.logger.error({ err: error }, 'outbox relay failed'))
          .finally(() => {
            if (timer) timer = setTimeout(tick, options.intervalMs ?? 1000);
          });
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      for (const stopWatching of unwatch) stopWatching();
      unwatch = [];
      const t = timer;
      timer = undefined;
      if (t) clearTimeout(t);
      await inFlight?.catch(() => undefined);
      await hintedRun;
      await acknowledgeWaiting();
      await Promise.all(acknowledging);
    },
  };
}
