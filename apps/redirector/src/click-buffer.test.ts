import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ShortlinkClicked } from '@platform/contracts';
import { createLogger } from '@platform/telemetry';
import { describe, expect, it, vi } from 'vitest';
import { createClickBuffer } from './click-buffer.js';

const click = (i: number): ShortlinkClicked => ({
  click_id: `r:b:${i}`,
  id: 'sho.rt/abc',
  organization_id: 'o',
  group_guid: 'g',
  long_url: 'https://example.com/',
  clicked_at: i,
  referrer: null,
  user_agent: null,
  client_ip: null,
  bot: false,
  qr: false,
  qrcode_id: null,
  passed_params: '',
});

/** A broker that can be switched off: what it took, in order, and every batch it was offered. */
function broker() {
  const taken: string[] = [];
  const offered: Array<{ ids: string[]; up: boolean }> = [];
  let up = true;
  return {
    taken,
    offered,
    set up(value: boolean) {
      up = value;
    },
    sink: {
      async publish(batch: ShortlinkClicked[]) {
        offered.push({ ids: batch.map((c) => c.click_id), up });
        if (!up) throw new Error('broker down');
        taken.push(...batch.map((c) => c.click_id));
      },
    },
  };
}

const silent = createLogger({ name: 't', level: 'silent' });
const noMetrics = {
  buffered: () => undefined,
  spilled: () => undefined,
  dropped: () => undefined,
  published: () => undefined,
};

const settle = (ms = 150) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the click buffer', () => {
  it('loses nothing while the broker is down: memory, then the spool, replayed in order when it is back', async () => {
    const b = broker();
    const dropped: number[] = [];
    const dir = mkdtempSync(path.join(tmpdir(), 'clicks-'));
    const buffer = createClickBuffer({
      sink: b.sink,
      logger: createLogger({ name: 't', level: 'silent' }),
      maxBuffered: 10,
      spoolDir: dir,
      maxSpoolBytes: 1_000_000,
      batchSize: 4,
      flushIntervalMs: 10,
      metrics: {
        buffered: () => undefined,
        spilled: () => undefined,
        dropped: (n) => void dropped.push(n),
        published: () => undefined,
      },
    });
    buffer.start();
    b.up = false;
    for (let i = 0; i < 35; i++) buffer.add(click(i));
    await settle();
    expect(b.taken).toEqual([]);
    const waiting = ['clicks.spool', 'clicks.draining'].flatMap((f) =>
      existsSync(path.join(dir, f)) ? readFileSync(path.join(dir, f), 'utf8').trim().split('\n') : [],
    );
    expect(waiting.length).toBeGreaterThan(0);
    b.up = true;
    await settle(1500);
    expect(b.taken).toEqual(Array.from({ length: 35 }, (_, i) => `r:b:${i}`));
    expect(dropped).toEqual([]);
    await buffer.stop();
  });

  it('counts what fits nowhere instead of losing it silently', async () => {
    const b = broker();
    let dropped = 0;
    const buffer = createClickBuffer({
      sink: b.sink,
      logger: createLogger({ name: 't', level: 'silent' }),
      maxBuffered: 4,
      spoolDir: mkdtempSync(path.join(tmpdir(), 'clicks-')),
      maxSpoolBytes: 1024,
      flushIntervalMs: 10,
      metrics: {
        buffered: () => undefined,
        spilled: () => undefined,
        dropped: (n) => void (dropped += n),
        published: () => undefined,
      },
    });
    b.up = false;
    for (let i = 0; i < 100; i++) buffer.add(click(i));
    expect(dropped).toBeGreaterThan(0);
    await buffer.stop();
  });

  it('retries a failed batch exactly as it was, even when memory spills meanwhile', async () => {
    const b = broker();
    const buffer = createClickBuffer({
      sink: b.sink,
      logger: silent,
      maxBuffered: 6,
      spoolDir: mkdtempSync(path.join(tmpdir(), 'clicks-')),
      maxSpoolBytes: 1_000_000,
      batchSize: 4,
      flushIntervalMs: 10,
      metrics: noMetrics,
    });
    buffer.start();
    b.up = false;
    for (let i = 0; i < 3; i++) buffer.add(click(i));
    await settle(60);
    for (let i = 3; i < 20; i++) buffer.add(click(i));
    b.up = true;
    await settle(1500);
    // The batch offered while the broker was down is the first one offered once it is up, unchanged.
    const down = b.offered.filter((o) => !o.up);
    expect(down.length).toBeGreaterThan(0);
    expect(down.every((o) => o.ids.join() === down[0]!.ids.join())).toBe(true);
    expect(b.offered.find((o) => o.up)!.ids).toEqual(down[0]!.ids);
    expect(b.taken).toEqual(Array.from({ length: 20 }, (_, i) => `r:b:${i}`));
    await buffer.stop();
  });

  it('resumes a replay of the spool after the batches the broker already took', async () => {
    const b = broker();
    const dir = mkdtempSync(path.join(tmpdir(), 'clicks-'));
    const buffer = createClickBuffer({
      sink: b.sink,
      logger: silent,
      maxBuffered: 4,
      spoolDir: dir,
      maxSpoolBytes: 1_000_000,
      batchSize: 3,
      flushIntervalMs: 10,
      metrics: noMetrics,
    });
    b.up = false;
    for (let i = 0; i < 16; i++) buffer.add(click(i));
    await buffer.stop();
    // A new process: the broker takes the first spool batch, then its answer to the second is lost.
    b.up = true;
    const next = createClickBuffer({
      sink: b.sink,
      logger: silent,
      maxBuffered: 4,
      spoolDir: dir,
      maxSpoolBytes: 1_000_000,
      batchSize: 3,
      flushIntervalMs: 10,
      metrics: noMetrics,
    });
    let published = 0;
    const original = b.sink.publish;
    b.sink.publish = async (batch) => {
      await original(batch);
      if (++published === 2) throw new Error('connection lost before the answer');
    };
    next.start();
    await settle(1500);
    // The batch whose answer was lost is offered again as it was (the producer drops the copy); none before it.
    expect(b.taken).toEqual([
      ...Array.from({ length: 6 }, (_, i) => `r:b:${i}`),
      'r:b:3',
      'r:b:4',
      'r:b:5',
      ...Array.from({ length: 10 }, (_, i) => `r:b:${i + 6}`),
    ]);
    expect(b.offered[1]!.ids).toEqual(b.offered[2]!.ids);
    await next.stop();
  });

  it('on stop, puts a batch the broker refused in front of the clicks spilled after it', async () => {
    const b = broker();
    const dir = mkdtempSync(path.join(tmpdir(), 'clicks-'));
    const buffer = createClickBuffer({
      sink: b.sink,
      logger: silent,
      maxBuffered: 4,
      spoolDir: dir,
      maxSpoolBytes: 1_000_000,
      batchSize: 2,
      flushIntervalMs: 10,
      metrics: noMetrics,
    });
    buffer.start();
    b.up = false;
    buffer.add(click(0));
    buffer.add(click(1));
    await settle(60);
    for (let i = 2; i < 9; i++) buffer.add(click(i));
    await buffer.stop();
    const lines = readFileSync(path.join(dir, 'clicks.spool'), 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as ShortlinkClicked).click_id)).toEqual(
      Array.from({ length: 9 }, (_, i) => `r:b:${i}`),
    );
  });

  it('publishes full batches while clicks arrive faster than the broker answers; a partial one waits for the interval or the stop', async () => {
    const offered: string[][] = [];
    const answers: Array<() => void> = [];
    const sink = {
      publish: (batch: ShortlinkClicked[]) =>
        new Promise<void>((resolve) => {
          offered.push(batch.map((c) => c.click_id));
          answers.push(resolve);
        }),
    };
    let published = 0;
    const metrics = { ...noMetrics, published: (n: number) => void (published += n) };
    const buffer = createClickBuffer({
      sink,
      logger: silent,
      maxBuffered: 100,
      spoolDir: mkdtempSync(path.join(tmpdir(), 'clicks-')),
      maxSpoolBytes: 1_000_000,
      batchSize: 4,
      flushIntervalMs: 60_000,
      metrics,
    });
    for (let i = 0; i < 6; i++) buffer.add(click(i));
    expect(offered).toEqual([['r:b:0', 'r:b:1', 'r:b:2', 'r:b:3']]);
    // The broker answers: the drain counts the batch and looks for the next in the same step; the two clicks
    // that arrived meanwhile are not a batch yet.
    answers.shift()!();
    await vi.waitFor(() => expect(published).toBe(4));
    expect(offered).toHaveLength(1);
    expect(buffer.buffered).toBe(2);
    buffer.add(click(6));
    buffer.add(click(7));
    expect(offered).toHaveLength(2);
    expect(offered[1]).toEqual(['r:b:4', 'r:b:5', 'r:b:6', 'r:b:7']);
    answers.shift()!();
    buffer.add(click(8));
    const stopped = buffer.stop();
    await vi.waitFor(() => expect(offered).toHaveLength(3));
    expect(offered[2]).toEqual(['r:b:8']);
    answers.shift()!();
    await stopped;
  });

  it('sends a partial batch when the interval comes round', async () => {
    const b = broker();
    const buffer = createClickBuffer({
      sink: b.sink,
      logger: silent,
      maxBuffered: 100,
      spoolDir: mkdtempSync(path.join(tmpdir(), 'clicks-')),
      maxSpoolBytes: 1_000_000,
      batchSize: 500,
      flushIntervalMs: 20,
      metrics: noMetrics,
    });
    buffer.start();
    buffer.add(click(0));
    buffer.add(click(1));
    expect(b.offered).toEqual([]);
    await vi.waitFor(() => expect(b.taken).toEqual(['r:b:0', 'r:b:1']));
    expect(b.offered).toHaveLength(1);
    await buffer.stop();
  });

  it('cuts a partial batch only once its first click has waited a whole interval (a steady stream sends full batches)', async () => {
    vi.useFakeTimers();
    try {
      const b = broker();
      const buffer = createClickBuffer({
        sink: b.sink,
        logger: silent,
        maxBuffered: 100,
        spoolDir: mkdtempSync(path.join(tmpdir(), 'clicks-')),
        maxSpoolBytes: 1_000_000,
        batchSize: 4,
        flushIntervalMs: 50,
        metrics: noMetrics,
      });
      buffer.start();
      for (let i = 0; i < 3; i++) buffer.add(click(i));
      await vi.advanceTimersByTimeAsync(50);
      // The tick saw them first: they have not waited an interval yet.
      expect(b.offered).toEqual([]);
      buffer.add(click(3));
      await vi.advanceTimersByTimeAsync(0);
      expect(b.taken).toEqual(['r:b:0', 'r:b:1', 'r:b:2', 'r:b:3']);
      buffer.add(click(4));
      buffer.add(click(5));
      await vi.advanceTimersByTimeAsync(50);
      expect(b.offered).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(50);
      expect(b.offered.map((o) => o.ids)).toEqual([
        ['r:b:0', 'r:b:1', 'r:b:2', 'r:b:3'],
        ['r:b:4', 'r:b:5'],
      ]);
      await buffer.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
