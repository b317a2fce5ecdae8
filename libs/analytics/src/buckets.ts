/**
 * Time buckets. Every bucket is a UTC interval: a minute, an hour, a day (00:00 UTC), an ISO week (Monday
 * 00:00 UTC, as ISO 8601 and most of the world count weeks; Bitly does not say) or a calendar month (the 1st,
 * 00:00 UTC). A time zone offset in `unit_reference` moves the instant it names, never the boundaries.
 */
export const UNITS = ['minute', 'hour', 'day', 'week', 'month'] as const;
export type Unit = (typeof UNITS)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FIXED: Record<Exclude<Unit, 'month'>, number> = { minute: MINUTE, hour: HOUR, day: DAY, week: 7 * DAY };

export const isUnit = (value: unknown): value is Unit =>
  typeof value === 'string' && (UNITS as readonly string[]).includes(value);

/** The start of the bucket that holds `at` (epoch milliseconds). */
export function bucketStart(unit: Unit, at: number): number {
  switch (unit) {
    case 'minute':
    case 'hour':
    case 'day':
      return Math.floor(at / FIXED[unit]) * FIXED[unit];
    case 'week': {
      const day = Math.floor(at / DAY) * DAY;
      // 1970-01-01 was a Thursday: getUTCDay() is 0 for Sunday; Monday-based index is (day + 6) % 7.
      const sinceMonday = (new Date(day).getUTCDay() + 6) % 7;
      return day - sinceMonday * DAY;
    }
    case 'month': {
      const d = new Date(at);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
  }
}

/** The start of the bucket `n` units after (negative: before) the bucket that starts at `start`. */
export function addUnits(unit: Unit, start: number, n: number): number {
  if (unit === 'month') {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
  }
  return start + n * FIXED[unit];
}

/** How many buckets lie from the one holding `from` to the one holding `to`, both included (0 if `from` is later). */
export function bucketsBetween(unit: Unit, from: number, to: number): number {
  const a = bucketStart(unit, from);
  const b = bucketStart(unit, to);
  if (a > b) return 0;
  if (unit === 'month') {
    const da = new Date(a);
    const db = new Date(b);
    return (db.getUTCFullYear() - da.getUTCFullYear()) * 12 + db.getUTCMonth() - da.getUTCMonth() + 1;
  }
  return Math.round((b - a) / FIXED[unit]) + 1;
}

/** The starts of `count` buckets ending with the one that holds `reference`, most recent first. */
export function bucketSeries(unit: Unit, reference: number, count: number): number[] {
  const last = bucketStart(unit, reference);
  return Array.from({ length: Math.max(0, count) }, (_, i) => addUnits(unit, last, -i));
}

/** The length of a bucket of this unit in milliseconds (a month: the one that starts at `start`). */
export function bucketLength(unit: Unit, start: number): number {
  return addUnits(unit, start, 1) - start;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Bitly's timestamp form, `2020-01-18T06:28:00+0000`: seconds, no fraction, `+0000`. */
export function formatTime(at: number): string {
  const d = new Date(at);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}+0000`;
}

// YYYY-MM-DD, then optionally THH:MM[:SS[.fraction]], then optionally Z, ±HH, ±HHMM or ±HH:MM.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month of the proleptic Gregorian calendar (year 0 is a leap year; Date.UTC would take it for 1900). */
function daysIn(year: number, month: number): number {
  return month === 2 && isLeap(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

const MONTH_DAY = '(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\\d|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)';
const LEAP_DAY = '(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:[.,]\\d{1,9})?)?';
const OFFSET = '(?:[Zz]|[+-](?:0\\d|1[0-8])(?::?[0-5]\\d)?)';

/**
 * The timestamps parseIsoTimestamp takes, exactly, as a JSON Schema `pattern` (real calendar dates only), so that
 * an API's document says what it accepts. `separators` are the characters allowed between date and time.
 */
export function isoTimestampPattern(separators = 'Tt'): string {
  return `^(?:\\d{4}-${MONTH_DAY}|${LEAP_DAY})(?:[${separators}]${TIME})?${OFFSET}?$`;
}

/**
 * An ISO-8601 timestamp (`unit_reference`) as epoch milliseconds, or null when it is not one: a calendar date
 * with an optional time and an optional offset (`Z`, `+05:30`, `+0530`, `-08`). Without an offset the time is
 * UTC. Impossible dates (February 30th, hour 25) are refused rather than rolled over.
 */
export function parseIsoTimestamp(raw: string): number | null {
  const m = ISO.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', , sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  if (day > daysIn(year, month)) return null;
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (offsetHours > 18 || offsetMinutes > 59) return null;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  // Date.UTC maps years 0-99 to 1900-1999; set the year again for them.
  const fixed = year < 100 ? new Date(local).setUTCFullYear(year) : local;
  const offset = sign ? (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * MINUTE : 0;
  return fixed - offset;
}
