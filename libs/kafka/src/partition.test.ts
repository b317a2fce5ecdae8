import { Partitioners } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { keyHash } from './partition.js';

describe('keyHash', () => {
  it('places every key on the partition kafkajs places it on', () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    const keys = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'sho.rt/abc',
      'bit.ly/3xY_z-9',
      'é',
      'links.example/ünïcode-ключ',
      ...Array.from({ length: 2000 }, (_, i) => `sho.rt/h${i.toString(36)}x${i * 7919}`),
    ];
    for (const partitions of [1, 3, 12, 24, 50]) {
      const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionId, leader: 0 }));
      for (const key of keys) {
        const expected = kafkajs({
          topic: 't',
          partitionMetadata: partitionMetadata as never,
          message: { key, value: null },
        });
        expect(keyHash(Buffer.from(key)) % partitions, `${key} over ${partitions}`).toBe(expected);
      }
    }
  });
});
