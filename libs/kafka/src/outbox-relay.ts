import type { MessageType } from '@platform/contracts';
import type { Logger } from '@platform/telemetry';
import type { Publisher } from './publisher.js';

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
  /** The pending entries of these documents only (primary-key lookups: no scan). */
  pendingIn?(docIds: string[]): Promise<Array<{ docId: string; entries: OutboxEntry[] }>>;
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
}): OutboxRelay {
  let timer: NodeJS.Timeout | undefined;
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

  async function publishAndAcknowledge(
    source: OutboxSource,
    docs: Array<{ docId: string; entries: OutboxEntry[] }>,
  ): Promise<number> {
    if (docs.length === 0) return 0;
    const fresh = docs.flatMap((d) => d.entries.filter((e) => !published.has(e.id)));
    if (fresh.length > 0) {
      await options.publisher.publishMany(
        fresh.map((e) => ({
          topic: e.topic,
          key: e.key,
          type: e.type,
          value: e.value as never,
          id: e.id,
          headers: e.headers ?? {},
        })),
      );
      remember(fresh);
    }
    let count = 0;
    for (const d of docs) {
      await source.acknowledge(d.docId, d.entries);
      count += d.entries.length;
    }
    return count;
  }

  async function drain(): Promise<number> {
    let count = 0;
    for (const source of options.sources) {
      for (;;) {
        const docs = await source.pending(options.batchSize ?? 100);
        if (docs.length === 0) break;
        count += await publishAndAcknowledge(source, docs);
        if (docs.length < (options.batchSize ?? 100)) break;
      }
    }
    return count;
  }

  /** Per source, the hinted documents; with the entries they received when every hint of theirs had them. */
  const hinted = new Map<string, Map<string, OutboxEntry[] | null>>();
  let hintedRun: Promise<void> | undefined;

  /** Drains hinted documents only, one run at a time; hints arriving meanwhile join the next run. */
  async function drainHinted(): Promise<void> {
    while (hinted.size > 0) {
      const batch = [...hinted.entries()];
      hinted.clear();
      for (const [name, docs] of batch) {
        const source = options.sources.find((s) => s.name === name);
        if (!source?.pendingIn) continue;
        const toRead = [...docs].filter(([, entries]) => entries === null).map(([docId]) => docId);
        const given = [...docs].flatMap(([docId, entries]) => (entries ? [{ docId, entries }] : []));
        // Entries handed over do not wait behind a sweep's reads (the tail of a watch stream's latency was that
        // wait): a sweep running meanwhile may publish them as well, which consumers dedupe, but never drops one.
        await Promise.all([
          publishAndAcknowledge(source, given),
          toRead.length > 0
            ? exclusive(async () => publishAndAcknowledge(source, await source.pendingIn!(toRead)))
            : undefined,
        ]);
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

  return {
    flush,
    wake(hints) {
      const usable = hints?.filter((h) => options.sources.some((s) => s.name === h.source && s.pendingIn));
      if (!usable || usable.length === 0 || usable.length !== hints?.length) {
        flush().catch((error: unknown) => options.logger.error({ err: error }, 'outbox relay failed'));
        return;
      }
      for (const h of usable) {
        let docs = hinted.get(h.source);
        if (!docs) hinted.set(h.source, (docs = new Map()));
        const before = docs.get(h.docId);
        // A document hinted twice, once without its entries, is read: it may hold more than either hint knows.
        docs.set(
          h.docId,
          h.entries && h.entries.length > 0 && before !== null ? [...(before ?? []), ...h.entries] : null,
        );
      }
      scheduleHinted();
    },
    start() {
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
      const t = timer;
      timer = undefined;
      if (t) clearTimeout(t);
      await inFlight?.catch(() => undefined);
      await hintedRun;
    },
  };
}
