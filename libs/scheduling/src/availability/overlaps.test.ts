import { describe, expect, it } from 'vitest';
import { findConflict, overlaps } from './overlaps.js';
import type { Interval } from './types.js';

function at(hour: number, minute = 0): Date {
  return new Date(Date.UTC(2026, 0, 5, hour, minute));
}

function from(startHour: number, endHour: number): Interval {
  return { start: at(startHour), end: at(endHour) };
}

describe('overlaps', () => {
  it('is true when the intervals share an instant, either way round', () => {
    expect(overlaps(from(9, 11), from(10, 12))).toBe(true);
    expect(overlaps(from(10, 12), from(9, 11))).toBe(true);
    expect(overlaps(from(9, 12), from(10, 11))).toBe(true);
    expect(overlaps(from(9, 10), from(9, 10))).toBe(true);
    expect(overlaps({ start: at(9, 59), end: at(11) }, from(9, 10))).toBe(true);
  });

  it('is false for intervals that only touch or are apart', () => {
    expect(overlaps(from(9, 10), from(10, 11))).toBe(false);
    expect(overlaps(from(10, 11), from(9, 10))).toBe(false);
    expect(overlaps(from(9, 10), from(12, 13))).toBe(false);
  });

  it('is false for an empty or inverted interval, which holds no instant', () => {
    expect(overlaps({ start: at(10), end: at(10) }, from(9, 11))).toBe(false);
    expect(overlaps(from(9, 11), from(11, 10))).toBe(false);
  });
});

describe('findConflict', () => {
  it('returns the first existing interval that overlaps', () => {
    const existing = [from(8, 9), from(11, 12), from(10, 11)];
    expect(findConflict(from(10, 12), existing)).toBe(existing[1]);
  });

  it('returns undefined when nothing overlaps, back-to-back included', () => {
    expect(findConflict(from(10, 11), [from(9, 10), from(11, 12)])).toBeUndefined();
    expect(findConflict(from(10, 11), [])).toBeUndefined();
  });
});
