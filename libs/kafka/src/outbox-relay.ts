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
}

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
  // The sweep and the hinted runs never overlap: both would read a document before either acknowledged
  // it, and publish its events twice (consumers dedupe, but a duplicate is still work and noise for them).
  let turn: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = turn.then(work);
    turn = run.catch(() => undefined);
    return run;
  }

  async function drain(): Promise<number> {
    let published = 0;
    for (const source of options.sources) {
      for (;;) {
        const docs = await source.pending(options.batchSize ?? 100);
        if (docs.length === 0) break;
        await options.publisher.publishMany(
          docs.flatMap((d) =>
            d.entries.map((e) => ({
              topic: e.topic,
              key: e.key,
              type: e.type,
              value: e.value as never,
              id: e.id,
              headers: e.headers ?? {},
            })),
          ),
        );
        for (const d of docs) {
          await source.acknowledge(d.docId, d.entries);
          published += d.entries.length;
        }
        if (docs.length < (options.batchSize ?? 100)) break;
      }
    }
    return published;
  }

  async function publishAndAcknowledge(source: OutboxSource, docs: Array<{ docId: string; entries: OutboxEntry[] }>): Promise<number> {
    if (docs.length === 0) return 0;
    await options.publisher.publishMany(
      docs.flatMap((d) =>
        d.entries.map((e) => ({ topic: e.topic, key: e.key, type: e.type, value: e.value as never, id: e.id, headers: e.headers ?? {} })),
      ),
    );
    let published = 0;
    for (const d of docs) {
      await source.acknowledge(d.docId, d.entries);
      published += d.entries.length;
    }
    return published;
  }

  const hinted = new Map<string, Set<string>>();
  let hintedRun: Promise<void> | undefined;

  /** Drains hinted documents only, one run at a time; hints arriving meanwhile join the next run. */
  async function drainHinted(): Promise<void> {
    while (hinted.size > 0) {
      const batch = [...hinted.entries()];
      hinted.clear();
      for (const [name, ids] of batch) {
        const source = options.sources.find((s) => s.name === name);
        if (!source?.pendingIn) continue;
        await exclusive(async () => publishAndAcknowledge(source, await source.pendingIn!([...ids])));
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
        let ids = hinted.get(h.source);
        if (!ids) hinted.set(h.source, (ids = new Set()));
        ids.add(h.docId);
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
