import { describe, expect, it } from 'vitest';
import { decide } from './outcome.js';

describe('decide', () => {
  it.each([
    [200, 'delivered'],
    [204, 'delivered'],
    [301, 'retry'],
    [302, 'retry'],
    [400, 'retry'],
    [410, 'disable_target'],
    [500, 'retry'],
  ])('status %i -> %s', (status, action) => {
    expect(decide({ kind: 'response', status }).action).toBe(action);
  });

  it('honours Retry-After on 429 and 503', () => {
    expect(decide({ kind: 'response', status: 429, retryAfter: '30' })).toEqual({
      action: 'retry',
      notBeforeMs: 30_000,
    });
    expect(decide({ kind: 'response', status: 503, retryAfter: '2' })).toEqual({ action: 'retry', notBeforeMs: 2_000 });
  });

  it('retries network errors and gives up on forbidden addresses', () => {
    expect(decide({ kind: 'error', error: 'ECONNREFUSED' })).toEqual({ action: 'retry' });
    expect(decide({ kind: 'error', error: 'blocked', blocked: true })).toEqual({ action: 'give_up' });
  });
});
