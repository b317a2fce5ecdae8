import { describe, expect, it } from 'vitest';
import { sequenceAt } from './sightings.js';

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
