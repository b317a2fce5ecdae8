import { describe, expect, it } from 'vitest';
import { createLatencyHistogram } from './latency.js';

describe('createLatencyHistogram', () => {
  it('counts each sample in the first bucket whose bound holds it, cumulatively when read', () => {
    const histogram = createLatencyHistogram([0.001, 0.01]);
    for (const seconds of [0.0002, 0.001, 0.004, 0.01, 0.5]) histogram.record(seconds);
    const { buckets, sum } = histogram.read();
    expect(buckets).toEqual([
      { le: '0.001', count: 2 },
      { le: '0.01', count: 4 },
      { le: '+Inf', count: 5 },
    ]);
    expect(sum).toBeCloseTo(0.5152, 10);
  });

  it('reads zeros before any sample, every bound present', () => {
    expect(createLatencyHistogram([0.005]).read()).toEqual({
      buckets: [
        { le: '0.005', count: 0 },
        { le: '+Inf', count: 0 },
      ],
      sum: 0,
    });
  });
});
