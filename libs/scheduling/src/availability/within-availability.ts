import { DateTime, IANAZone } from 'luxon';
import { minutesOfDay } from './time-of-day.js';
import { WEEKDAYS, type Availability, type Interval } from './types.js';

const MS_PER_MINUTE = 60_000;

/** Wall-clock minutes since the start of a local day, [start, end); end may be 1440 (24:00). */
interface WallRange {
  start: number;
  end: number;
}

interface DailyRanges {
  /** Keyed by ISO weekday, 1 = Monday. */
  weekly: Map<number, WallRange[]>;
  /** Keyed by "YYYY-MM-DD"; a date present here ignores the weekly ranges (an empty list is a day off). */
  overrides: Map<string, WallRange[]>;
}

/** Sorts and joins overlapping or touching ranges, so that each instant falls in at most one. */
function merged(ranges: WallRange[]): WallRange[] {
  const out: WallRange[] = [];
  for (const range of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = out.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else out.push({ ...range });
  }
  return out;
}

function dailyRanges(availability: Availability): DailyRanges {
  const weekly = new Map<number, WallRange[]>();
  for (const range of availability.weekly) {
    const wall = { start: minutesOfDay(range.startTime), end: minutesOfDay(range.endTime) };
    for (const day of new Set(range.days)) {
      const isoWeekday = WEEKDAYS.indexOf(day) + 1;
      weekly.set(isoWeekday, [...(weekly.get(isoWeekday) ?? []), wall]);
    }
  }
  const overrides = new Map<string, WallRange[]>();
  for (const override of availability.overrides) {
    const wall = { start: minutesOfDay(override.startTime), end: minutesOfDay(override.endTime) };
    const ranges = overrides.get(override.date) ?? [];
    // The "00:00"-"00:00" day off is empty: it only marks the date as overridden.
    if (wall.end > wall.start) ranges.push(wall);
    overrides.set(override.date, ranges);
  }
  for (const [key, ranges] of weekly) weekly.set(key, merged(ranges));
  for (const [key, ranges] of overrides) overrides.set(key, merged(ranges));
  return { weekly, overrides };
}

function rangesOn(daily: DailyRanges, local: DateTime): WallRange[] {
  return daily.overrides.get(local.toISODate() ?? '') ?? daily.weekly.get(local.weekday) ?? [];
}

/** The first instant in (from, to] whose UTC offset differs from the offset at `from` (which `to` has). */
function offsetChangeBetween(zone: IANAZone, from: number, to: number): number {
  const offset = zone.offset(from);
  let [low, high] = [from, to];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (zone.offset(middle) === offset) low = middle;
    else high = middle;
  }
  return high;
}

/**
 * True when every instant of the interval lies in the schedule's availability. An instant is available when
 * its wall-clock time, in the schedule's zone, falls in a range of its local date. So across a DST change a
 * range keeps its wall-clock meaning: on a spring-forward day 01:00-04:00 lasts two hours, and on a fall-back
 * day 01:00-02:00 covers both one-o'clock hours. Ranges that touch, within a day or across midnight, join.
 * An empty, inverted or invalid interval is never within availability.
 */
export function isWithinAvailability(availability: Availability, interval: Interval): boolean {
  const start = interval.start.getTime();
  const end = interval.end.getTime();
  if (!(start < end)) return false;
  const zone = IANAZone.create(availability.timeZone);
  if (!zone.isValid) return false;
  const daily = dailyRanges(availability);

  // Walk from the start, jumping to the end of the range that holds the current instant, or to the next
  // offset change first, since there the wall clock jumps and the range must be looked up again.
  let instant = start;
  while (instant < end) {
    const local = DateTime.fromMillis(instant, { zone });
    const wallMs = ((local.hour * 60 + local.minute) * 60 + local.second) * 1000 + local.millisecond;
    const range = rangesOn(daily, local).find(
      (r) => r.start * MS_PER_MINUTE <= wallMs && wallMs < r.end * MS_PER_MINUTE,
    );
    if (!range) return false;
    const rangeEnd = instant + (range.end * MS_PER_MINUTE - wallMs);
    instant =
      zone.offset(rangeEnd - 1) === zone.offset(instant) ? rangeEnd : offsetChangeBetween(zone, instant, rangeEnd - 1);
  }
  return true;
}
