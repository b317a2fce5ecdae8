import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
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
  /** The most clicks in one publish; while clicks arrive faster than that, every batch is full. */
  batchSize?: number;
  /** How often a partial batch is considered: one goes once its first click has waited a whole interval (Kafka's linger), so a click reaches the broker within two. */
  flushIntervalMs?: number;
  metrics?: {
    buffered(n: number): void;
    spilled(n: number): void;
    dropped(n: number): void;
    published(n: number): void;
  };
}

/** The partial batch from memory a drain may cut: the one starting with this click (it has waited an interval), any (at stop), or none. */
type PartialCut = ShortlinkClicked | 'any' | undefined;

/** The batch being published, and where it came from: the spool being replayed, or memory. */
interface Batch {
  clicks: ShortlinkClicked[];
  fromSpool: boolean;
}

/**
 * Takes clicks without waiting (a redirect never waits for Kafka) and publishes them in batches. While the
 * broker is down they stay in memory up to `maxBuffered`, then go to an append-only spool file; when the
 * broker is back the spool is replayed before the memory. A click that fits nowhere is counted and logged,
 * never silently lost. What is in memory when the process is killed is lost; the spool survives it.
 *
 * Under load every batch is full: while one is being published the next gathers, and a partial batch goes
 * only once its first click has waited a whole interval (or at stop). Publishing whatever had gathered made
 * batches of 100-200 clicks at 20 000 redirects a second, and the cost of the redirector's publisher thread,
 * the broker and the consumers goes mostly by batch.
 *
 * A batch that failed is retried as it was (the same clicks in the same order), never split or merged with
 * others: the sink's idempotent producer then recognises a batch that reached the broker before the failure
 * (its answer lost with the connection) and does not write it twice. The spool's replay records its progress
 * after every batch, so a failure part-way resumes after the batches the broker took.
 */
export function createClickBuffer(options: ClickBufferOptions) {
  const batchSize = options.batchSize ?? 500;
  const spool = path.join(options.spoolDir, 'clicks.spool');
  const draining = path.join(options.spoolDir, 'clicks.draining');
  /** How many clicks of the draining file the broker has taken (a crash between a publish and this write repeats one batch). */
  const progress = path.join(options.spoolDir, 'clicks.draining.done');
  const memory: ShortlinkClicked[] = [];
  let head: Batch | undefined;
  /** The draining file, read once, and how far its replay has got. */
  let replay: { clicks: ShortlinkClicked[]; done: number } | undefined;
  let spoolBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  /** The first click in memory at the last tick of the interval: still first at the next, it has waited a whole interval. */
  let firstAtTick: ShortlinkClicked | undefined;
  let running: Promise<void> | undefined;
  let failures = 0;
  let stopped = false;
  let droppedSinceLog = 0;

  mkdirSync(options.spoolDir, { recursive: true });
  if (existsSync(spool)) spoolBytes = statSync(spool).size;
  /** Whether a spool or draining file may exist: only this process writes its spool directory, so no probing per batch. */
  let spooled = existsSync(spool) || existsSync(draining);

  const toLines = (clicks: ShortlinkClicked[]) => clicks.map((c) => JSON.stringify(c)).join('\n') + '\n';
  /** A line cut short by a crash mid-write cannot be read back: it is counted as dropped, the rest replayed. */
  function fromLines(text: string): ShortlinkClicked[] {
    const clicks: ShortlinkClicked[] = [];
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      try {
        clicks.push(JSON.parse(line) as ShortlinkClicked);
      } catch {
        droppedSinceLog++;
        options.metrics?.dropped(1);
      }
    }
    return clicks;
  }

  function spill(clicks: ShortlinkClicked[]): void {
    const text = toLines(clicks);
    if (spoolBytes + text.length > options.maxSpoolBytes) {
      droppedSinceLog += clicks.length;
      options.metrics?.dropped(clicks.length);
      return;
    }
    try {
      appendFileSync(spool, text);
      spoolBytes += text.length;
      spooled = true;
      options.metrics?.spilled(clicks.length);
    } catch (error) {
      droppedSinceLog += clicks.length;
      options.metrics?.dropped(clicks.length);
      options.logger.error({ err: error }, 'the click spool cannot be written');
    }
  }

  /** The spool to replay, if any: the file being drained, else the spool file (renamed to be drained). */
  function openReplay(): typeof replay {
    if (!spooled) return undefined;
    if (!existsSync(draining)) {
      if (!existsSync(spool)) {
        spooled = false;
        return undefined;
      }
      renameSync(spool, draining);
      rmSync(progress, { force: true });
      spoolBytes = 0;
    }
    const done = existsSync(progress) ? Number(readFileSync(progress, 'utf8')) || 0 : 0;
    return { clicks: fromLines(readFileSync(draining, 'utf8')), done };
  }

  /** The batch to publish next: the one that failed last, else the spool's next (older clicks), else memory's (when full, or the partial one allowed). */
  function nextBatch(partial: PartialCut): Batch | undefined {
    if (head) return head;
    replay ??= openReplay();
    if (replay && replay.done >= replay.clicks.length) {
      rmSync(draining, { force: true });
      rmSync(progress, { force: true });
      replay = openReplay();
    }
    if (replay) head = { clicks: replay.clicks.slice(replay.done, replay.done + batchSize), fromSpool: true };
    else if (memory.length >= batchSize || (memory.length > 0 && (partial === 'any' || memory[0] === partial)))
      head = { clicks: memory.splice(0, batchSize), fromSpool: false };
    return head;
  }

  /** Publishes full batches, and the partial one allowed. */
  async function drain(partial: PartialCut): Promise<void> {
    for (let batch = nextBatch(partial); batch; batch = nextBatch(partial)) {
      await options.sink.publish(batch.clicks);
      head = undefined;
      if (batch.fromSpool && replay) {
        replay.done += batch.clicks.length;
        writeFileSync(`${progress}.tmp`, String(replay.done));
        renameSync(`${progress}.tmp`, progress);
      }
      options.metrics?.published(batch.clicks.length);
      options.metrics?.buffered(memory.length);
    }
  }

  /** Drains what is held (full batches, and the partial one allowed); a flush already running is joined, not repeated. */
  async function flush(partial: PartialCut): Promise<void> {
    running ??= (async () => {
      try {
        await drain(partial);
        if (failures > 0) options.logger.info({ failures }, 'click publishing recovered');
        failures = 0;
      } catch (error) {
        failures++;
        if (failures === 1 || failures % 20 === 0)
          options.logger.warn(
            { err: error, buffered: memory.length, spool_bytes: spoolBytes },
            'clicks wait for the broker',
          );
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
    timer = setTimeout(() => {
      const first = memory[0];
      const waited = first !== undefined && first === firstAtTick ? first : undefined;
      firstAtTick = first;
      void flush(waited).finally(schedule);
    }, delay);
    timer.unref();
  }

  return {
    add(click: ShortlinkClicked): void {
      if (memory.length >= options.maxBuffered) {
        // Memory is full: the oldest half goes to the spool, keeping the newest in memory.
        spill(memory.splice(0, Math.ceil(memory.length / 2)));
      }
      memory.push(click);
      options.metrics?.buffered(memory.length);
      if (memory.length >= batchSize && failures === 0) void flush(undefined);
    },
    get buffered() {
      return memory.length;
    },
    start(): void {
      stopped = false;
      schedule();
    },
    /** Publishes what it holds; what the broker does not take by then goes to the spool, oldest first. */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
      await flush('any');
      // A replayed batch needs nothing (the spool's progress was not moved past it). A failed batch from memory
      // is older than what was spilled after it was taken: it goes in front of that, then the rest of memory.
      const failed = head && !head.fromSpool ? head.clicks : [];
      head = undefined;
      const later = failed.length > 0 && existsSync(spool) ? readFileSync(spool, 'utf8') : '';
      if (later) {
        rmSync(spool);
        spoolBytes = 0;
      }
      if (failed.length > 0) spill(failed);
      if (later) {
        appendFileSync(spool, later);
        spoolBytes += later.length;
        spooled = true;
      }
      if (memory.length > 0) spill(memory.splice(0));
    },
  };
}

export type ClickBuffer = ReturnType<typeof createClickBuffer>;
