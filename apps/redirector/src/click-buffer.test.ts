import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ShortlinkClicked } from '@platform/contracts';
import { createLogger } from '@platform/telemetry';
import { describe, expect, it } from 'vitest';
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
});

/** A broker that can be switched off: what it took, in order. */
function broker() {
  const taken: string[] = [];
  let up = true;
  return {
    taken,
    set up(value: boolean) {
      up = value;
    },
    sink: {
      async publish(batch: ShortlinkClicked[]) {
        if (!up) throw new Error('broker down');
        taken.push(...batch.map((c) => c.click_id));
      },
    },
  };
}

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
      metrics: { buffered: () => undefined, spilled: () => undefined, dropped: (n) => void dropped.push(n), published: () => undefined },
    });
    buffer.start();
    b.up = false;
    for (let i = 0; i < 35; i++) buffer.add(click(i));
    await settle();
    expect(b.taken).toEqual([]);
    const waiting = ['clicks.spool', 'clicks.draining'].flatMap((f) => (existsSync(path.join(dir, f)) ? readFileSync(path.join(dir, f), 'utf8').trim().split('\n') : []));
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
      metrics: { buffered: () => undefined, spilled: () => undefined, dropped: (n) => void (dropped += n), published: () => undefined },
    });
    b.up = false;
    for (let i = 0; i < 100; i++) buffer.add(click(i));
    expect(dropped).toBeGreaterThan(0);
    await buffer.stop();
  });
});
