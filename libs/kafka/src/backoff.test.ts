import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('grows exponentially with jitter between half and the full ceiling', () => {
    expect(backoffDelay(1, 100, 10_000, () => 0)).toBe(50);
    expect(backoffDelay(1, 100, 10_000, () => 1)).toBe(100);
    expect(backoffDelay(4, 100, 10_000, () => 1)).toBe(800);
  });

  it('is capped', () => {
    expect(backoffDelay(30, 100, 5_000, () => 1)).toBe(5_000);
  });
});
