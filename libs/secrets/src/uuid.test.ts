import { describe, expect, it } from 'vitest';
import { uuidv7, uuidv7Time } from './uuid.js';

describe('uuidv7', () => {
  it('is a version 7, variant 10 UUID carrying its millisecond', () => {
    const id = uuidv7(Date.UTC(2030, 0, 1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidv7Time(id)).toBe(Date.UTC(2030, 0, 1));
  });

  it('sorts by creation, also within one millisecond and when the clock goes back', () => {
    const at = Date.UTC(2031, 5, 1);
    const ids = [...Array.from({ length: 5000 }, () => uuidv7(at)), uuidv7(at - 10), uuidv7(at + 1)];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
