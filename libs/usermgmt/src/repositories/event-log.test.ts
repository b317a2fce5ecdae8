import { describe, expect, it } from 'vitest';
import { EVENT_SETTLE_MS, logPositions } from './event-log.js';

const at = (ms: number) => ({ createdAt: new Date(ms) });

describe('logPositions', () => {
  const now = 1_000_000;

  it('places events recorded promptly where they happened, so batches of several partitions interleave in time', () => {
    // One partition's batch and another's, recorded in either order: each event keeps its own moment.
    const first = logPositions([at(now - 40), at(now - 20)], now);
    const second = logPositions([at(now - 30)], now);
    expect([...first, ...second].map((d) => d.getTime()).sort()).toEqual([now - 40, now - 30, now - 20]);
  });

  it('gives each event of a batch a later position than the one before it', () => {
    expect(logPositions([at(now - 5), at(now - 5), at(now - 9)], now).map((d) => d.getTime())).toEqual([
      now - 5,
      now - 4,
      now - 3,
    ]);
  });

  it('places an event recorded late where no reader can have been yet', () => {
    const [late] = logPositions([at(now - 60_000)], now);
    expect(late!.getTime()).toBe(now - EVENT_SETTLE_MS / 2);
    // Readers see events up to now - EVENT_SETTLE_MS: the late one lands after all of them.
    expect(late!.getTime()).toBeGreaterThan(now - EVENT_SETTLE_MS);
  });
});
