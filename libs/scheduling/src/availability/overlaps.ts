import type { Interval } from './types.js';

function isEmpty(interval: Interval): boolean {
  return !(interval.start.getTime() < interval.end.getTime());
}

/** Half-open intervals overlap when they share an instant: touching ([9, 10) and [10, 11)) is not overlap. */
export function overlaps(a: Interval, b: Interval): boolean {
  if (isEmpty(a) || isEmpty(b)) return false;
  return a.start.getTime() < b.end.getTime() && b.start.getTime() < a.end.getTime();
}

/** The first interval of `existing`, in its order, that overlaps the candidate. */
export function findConflict(candidate: Interval, existing: readonly Interval[]): Interval | undefined {
  return existing.find((interval) => overlaps(candidate, interval));
}
