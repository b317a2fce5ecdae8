import { afterEach, describe, expect, it, vi } from 'vitest';
import { recently } from './recent.js';

describe('recently', () => {
  afterEach(() => vi.useRealTimers());

  it('reuses an answer for its time to live, then reads again', async () => {
    vi.useFakeTimers();
    let reads = 0;
    const get = recently<string>({ ttlMs: 1000, max: 10 });
    const load = async () => `read ${++reads}`;
    expect(await get('a', load)).toBe('read 1');
    vi.advanceTimersByTime(999);
    expect(await get('a', load)).toBe('read 1');
    vi.advanceTimersByTime(1);
    expect(await get('a', load)).toBe('read 2');
  });

  it('shares one read between concurrent misses of a key', async () => {
    const load = vi.fn(async () => 'x');
    const get = recently<string>({ ttlMs: 1000, max: 10 });
    expect(await Promise.all([get('a', load), get('a', load), get('b', load)])).toEqual(['x', 'x', 'x']);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps neither a missing value nor a failed read', async () => {
    const get = recently<string>({ ttlMs: 1000, max: 10 });
    await expect(get('a', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await get('a', async () => null)).toBeNull();
    expect(await get('a', async () => 'there')).toBe('there');
  });

  it('drops the oldest key past its size', async () => {
    const reads: string[] = [];
    const get = recently<string>({ ttlMs: 1000, max: 2 });
    for (const key of ['a', 'b', 'c', 'a']) {
      await get(key, async () => {
        reads.push(key);
        return key;
      });
    }
    expect(reads).toEqual(['a', 'b', 'c', 'a']);
  });
});
