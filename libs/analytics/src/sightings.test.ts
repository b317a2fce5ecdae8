import { describe, expect, it } from 'vitest';
import { EventIdSet, createEventIdReader, sequenceAt } from './sightings.js';

describe('sequenceAt', () => {
  it('reads 1 to 15 digits without leading zeros as the sequence of a click id', () => {
    expect(sequenceAt('r1:b1:0', 6)).toBe(0);
    expect(sequenceAt('p:123456789012345', 2)).toBe(123456789012345);
  });

  it('leaves out what is not one plain number, so that such an id is a key of its own', () => {
    expect(sequenceAt('p:007', 2)).toBeNull();
    expect(sequenceAt('p:', 2)).toBeNull();
    expect(sequenceAt('p:1x', 2)).toBeNull();
    expect(sequenceAt('p:1234567890123456', 2)).toBeNull();
  });
});

describe('createEventIdReader', () => {
  it('names one producer chunk with the same string, however its producers interleave', () => {
    const read = createEventIdReader();
    const a = read('r1:b1:5');
    const b = read('r2:b1:6');
    expect(a).toEqual({ id: 'r1:b1:5', chunk: 'r1:b1:0', bit: 5 });
    expect(read('r1:b1:7').chunk).toBe(a.chunk);
    expect(read('r2:b1:8').chunk).toBe(b.chunk);
    expect(read(`r1:b1:${2 ** 20 + 3}`)).toMatchObject({ chunk: 'r1:b1:1', bit: 3 });
    expect(read('r1x:b1:5').chunk).toBe('r1x:b1:0');
  });

  it('leaves an id that is not a producer sequence as itself', () => {
    const read = createEventIdReader();
    for (const id of ['8d0d1f9e-uuid', ':7', 'p:007']) expect(read(id)).toEqual({ id, chunk: null, bit: 0 });
  });
});

describe('EventIdSet', () => {
  it('holds what a set of the ids would, whatever order they come in', () => {
    const read = createEventIdReader();
    const set = new EventIdSet();
    const reference = new Set<string>();
    let state = 7;
    const random = (n: number) => (state = (state * 48271) % 2147483647) % n;
    for (let i = 0; i < 20_000; i++) {
      const producer = ['r1:b1', 'r2:b9', 'other'][random(3)]!;
      const id =
        producer === 'other'
          ? `uuid-${random(50)}`
          : `${producer}:${random(3) === 0 ? random(2 ** 21) : 500_000 + random(4000)}`;
      const ref = read(id);
      expect(set.has(ref)).toBe(reference.has(id));
      set.add(ref);
      reference.add(id);
      expect(set.size).toBe(reference.size);
    }
    const back = new Set<string>(set.others());
    for (const { chunk, from, bytes } of set.chunks()) {
      const [producer, n] = [chunk.slice(0, chunk.lastIndexOf(':')), Number(chunk.slice(chunk.lastIndexOf(':') + 1))];
      bytes.forEach((byte, i) => {
        for (let b = 0; b < 8; b++) if (byte & (0x80 >> b)) back.add(`${producer}:${n * 2 ** 20 + (from + i) * 8 + b}`);
      });
    }
    expect(back).toEqual(reference);
  });
});
