import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetryAfter, retryDelayMs } from './retry-schedule.js';

describe('retry schedule', () => {
  it('follows the schedule with ±20% jitter and ends after the last attempt', () => {
    expect(retryDelayMs(1, { random: () => 0.5 })).toBe(0);
    expect(retryDelayMs(2, { random: () => 0 })).toBe(4_000);
    expect(retryDelayMs(2, { random: () => 1 })).toBe(6_000);
    expect(retryDelayMs(DEFAULT_RETRY_SCHEDULE_MS.length + 1)).toBeUndefined();
    const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(total / 3600_000).toBeGreaterThan(20);
  });

  it('compresses the clock', () => {
    expect(retryDelayMs(3, { scale: 0.001, random: () => 0.5 })).toBe(300);
  });

  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('120')).toBe(120_000);
    expect(parseRetryAfter(new Date(10_000 + 30_000).toUTCString(), 10_000)).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('999999999')).toBe(24 * 3600_000);
  });
});
