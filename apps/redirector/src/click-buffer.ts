import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ShortlinkClicked } from '@platform/contracts';
import type { Logger } from '@platform/telemetry';

export interface ClickSink {
  /** Publishes a batch; throws when the broker cannot take it (the batch is kept and retried). */
  publish(clicks: ShortlinkClicked[]): Promise<void>;
}

export interface ClickBufferOptions {
  sink: ClickSink;
  logger: Logger;
  /** Clicks held in memory while the broker is slow or down; past it they go to the spool file. */
  maxBuffered: number;
  /** Where clicks that did not fit in memory wait (one file per replica), replayed first once the broker is back. */
  spoolDir: string;
  /** The largest spool file; past it a click is dropped, counted and logged. */
  maxSpoolBytes: number;
  batchSize?: number;
  flushIntervalMs?: number;
  metrics?: { buffered(n: number): void; spilled(n: number): void; dropped(n: number): void; published(n: number): void };
}

/**
 * Takes clicks without waiting (a redirect never waits for Kafka) and publishes them in batches. While the
 * broker is down they stay in memory up to `maxBuffered`, then go to an append-only spool file; when the
 * broker is back the spool is replayed before the memory. A click that fits nowhere is counted and logged,
 * never silently lost. What is in memory when the process is killed is lost; the spool survives it.
 */
export function createClickBuffer(options: ClickBufferOptions) {
  const batchSize = options.batchSize ?? 500;
  const spool = path.join(options.spoolDir, 'clicks.spool');
  const draining = path.join(options.spoolDir, 'clicks.draining');
  const memory: ShortlinkClicked[] = [];
  let spoolBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let failures = 0;
  let stopped = false;
  let droppedSinceLog = 0;

  mkdirSync(options.spoolDir, { recursive: true });
  if (existsSync(spool)) spoolBytes = statSync(spool).size;

  function spill(clicks: ShortlinkClicked[]): void {
    const text = clicks.map((c) => JSON.stringify(c)).join('\n') + '\n';
    if (spoolBytes + text.length > options.maxSpoolBytes) {
      droppedSinceLog += clicks.length;
      options.metrics?.dropped(clicks.length);
      return;
    }
    try {
      appendFileSync(spool, text);
      spoolBytes += text.length;
      options.metrics?.spilled(clicks.length);
    } catch (error) {
      droppedSinceLog += clicks.length;
      options.metrics?.dropped(clicks.length);
      options.logger.error({ err: error }, 'the click spool cannot be written');
    }
  }

  /** The spool first (older clicks), in batches; a failure leaves the rest for the next round. */
  async function drainSpool(): Promise<void> {
    for (;;) {
      if (!existsSync(draining)) {
        if (!existsSync(spool)) return;
        renameSync(spool, draining);
        spoolBytes = 0;
      }
      const lines = readFileSync(draining, 'utf8').split('\n').filter((l) => l.length > 0);
      const clicks = lines.map((l) => JSON.parse(l) as ShortlinkClicked);
      // A failure part-way re-publishes the batches before it: click ids let consumers drop the repeats.
      for (let i = 0; i < clicks.length; i += batchSize) await options.sink.publish(clicks.slice(i, i + batchSize));
      rmSync(draining);
      options.metrics?.published(clicks.length);
    }
  }

  async function drainMemory(): Promise<void> {
    while (memory.length > 0) {
      // Out of memory while in flight: a spill meanwhile cannot take these too, and a failure puts them back.
      const batch = memory.splice(0, batchSize);
      try {
        await options.sink.publish(batch);
      } catch (error) {
        memory.unshift(...batch);
        throw error;
      }
      options.metrics?.published(batch.length);
      options.metrics?.buffered(memory.length);
    }
  }

  async function flush(): Promise<void> {
    running ??= (async () => {
      try {
        await drainSpool();
        await drainMemory();
        if (failures > 0) options.logger.info({ failures }, 'click publishing recovered');
        failures = 0;
      } catch (error) {
        failures++;
        if (failures === 1 || failures % 20 === 0) options.logger.warn({ err: error, buffered: memory.length, spool_bytes: spoolBytes }, 'clicks wait for the broker');
      } finally {
        if (droppedSinceLog > 0) {
          options.logger.error({ dropped: droppedSinceLog }, 'clicks dropped: memory and spool are full');
          droppedSinceLog = 0;
        }
        running = undefined;
      }
    })();
    return running;
  }

  function schedule(): void {
    if (stopped) return;
    const delay = failures === 0 ? (options.flushIntervalMs ?? 50) : Math.min(5_000, 100 * 2 ** Math.min(failures, 6));
    timer = setTimeout(() => void flush().finally(schedule), delay);
    timer.unref();
  }

  return {
    add(click: ShortlinkClicked): void {
      if (memory.length >= options.maxBuffered) {
        // Memory is full: the oldest half goes to the spool, keeping the newest in memory.
        const half = memory.splice(0, Math.ceil(memory.length / 2));
        spill(half);
      }
      memory.push(click);
      options.metrics?.buffered(memory.length);
      if (memory.length >= batchSize && failures === 0) void flush();
    },
    get buffered() {
      return memory.length;
    },
    start(): void {
      stopped = false;
      schedule();
    },
    /** Publishes what it holds; what the broker does not take by then goes to the spool. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
      await flush();
      if (memory.length > 0) spill(memory.splice(0));
    },
  };
}

export type ClickBuffer = ReturnType<typeof createClickBuffer>;
