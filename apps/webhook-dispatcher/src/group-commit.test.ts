import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.js';

describe('group commit', () => {
  it('writes the first at once and what arrives meanwhile in one batch after it', async () => {
    const flushed: number[][] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const commit = createGroupCommit<number>(async (items) => {
      flushed.push(items);
      if (flushed.length === 1) await first;
    });
    const writes = [commit.add(1), commit.add(2), commit.add(3)];
    await new Promise((r) => setTimeout(r, 5));
    expect(flushed).toEqual([[1]]);
    release();
    await Promise.all(writes);
    expect(flushed).toEqual([[1], [2, 3]]);
  });

  it('rejects every write of a failed batch, and goes on with the next', async () => {
    let calls = 0;
    const commit = createGroupCommit<string>(async (items) => {
      calls++;
      if (items.includes('bad')) throw new Error('store away');
    });
    const results = await Promise.allSettled([commit.add('bad'), commit.add('a'), commit.add('b')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(calls).toBe(2);
  });
});
