import { describe, expect, it } from 'vitest';
import { frameConfluent, readConfluentFrame } from './confluent-wire.js';

describe('Confluent wire format', () => {
  it('puts magic byte 0 and the registry id, big-endian, before the body', () => {
    const framed = frameConfluent(0x01020304, Buffer.from([0xaa, 0xbb]));
    expect([...framed]).toEqual([0, 1, 2, 3, 4, 0xaa, 0xbb]);
    expect(readConfluentFrame(framed)).toEqual({ registryId: 0x01020304, body: Buffer.from([0xaa, 0xbb]) });
  });

  it('finds no frame in a body without the magic byte or too short for the id', () => {
    expect(readConfluentFrame(Buffer.from([1, 0, 0, 0, 1, 2]))).toBeUndefined();
    expect(readConfluentFrame(Buffer.from([0, 0, 0, 1]))).toBeUndefined();
    expect(() => frameConfluent(-1, Buffer.alloc(0))).toThrow(RangeError);
  });
});
