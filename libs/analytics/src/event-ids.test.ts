import { describe, expect, it } from 'vitest';
import { EventIds, sequenceAt } from './event-ids.js';

describe('EventIds', () => {
  it('holds click ids under their producer and other ids as themselves, each once', () => {
    const ids = new EventIds();
    for (const id of ['r1:b1:1', 'r1:b1:2', 'r2:b1:1', 'r1:b1:1', 'evt-7f3a', 'r1:b2:1', 'evt-7f3a']) ids.add(id);
    expect(ids.size).toBe(5);
    expect([...ids].sort()).toEqual(['evt-7f3a', 'r1:b1:1', 'r1:b1:2', 'r1:b2:1', 'r2:b1:1']);
    expect([...ids.producers()].map(([producer, sequences]) => [producer, [...sequences]])).toEqual([
      ['r1:b1', [1, 2]],
      ['r2:b1', [1]],
      ['r1:b2', [1]],
    ]);
    expect([...ids.others()]).toEqual(['evt-7f3a']);
  });

  it('says whether it has an id, whatever producer it looked at last', () => {
    const ids = new EventIds();
    expect(ids.add('r1:b1:10')).toBe(true);
    expect(ids.add('r1:b1:10')).toBe(false);
    expect(ids.has('r1:b1:10')).toBe(true);
    expect(ids.has('r9:b1:10')).toBe(false);
    expect(ids.has('r1:b1:10')).toBe(true);
    expect(ids.has('r1:b1:11')).toBe(false);
    // A producer that is a prefix of another is not that other.
    expect(ids.has('r1:b1:1:10')).toBe(false);
    expect(ids.has('r1:b:10')).toBe(false);
    expect(ids.add('r1:b:10')).toBe(true);
    expect(ids.has('r1:b1:10') && ids.has('r1:b:10')).toBe(true);
  });

  it('keeps ids whose tail is not a plain number as they are', () => {
    const ids = new EventIds();
    for (const id of ['p:007', 'p:7', 'p:', ':5', 'p:1234567890123456', 'p:12a']) expect(ids.add(id)).toBe(true);
    expect(ids.size).toBe(6);
    expect([...ids.producers()].map(([producer, sequences]) => [producer, [...sequences]])).toEqual([['p', [7]]]);
    expect(ids.has('p:007') && ids.has('p:7')).toBe(true);
  });
});

describe('sequenceAt', () => {
  it('reads 1 to 15 digits without leading zeros', () => {
    expect(sequenceAt('p:0', 2)).toBe(0);
    expect(sequenceAt('p:123456789012345', 2)).toBe(123456789012345);
    expect(sequenceAt('p:01', 2)).toBeNull();
    expect(sequenceAt('p:', 2)).toBeNull();
    expect(sequenceAt('p:1x', 2)).toBeNull();
  });
});
