import type { FieldIssue } from '@platform/errors';
import { DateTime } from 'luxon';
import { AVAILABILITY_ERRORS } from './errors.js';
import type { Interval } from './types.js';

export const BOOKING_LIMITS = {
  minLengthInMinutes: 1,
  maxLengthInMinutes: 1440,
} as const;

// A start without an offset would be read in some implicit zone; a booking start must say which instant it is.
const EXPLICIT_OFFSET = /T.*(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;
const MAX_START_LENGTH = 64;

function parseStart(start: string, issues: FieldIssue[]): DateTime | undefined {
  const parsed =
    typeof start === 'string' && start.length <= MAX_START_LENGTH && EXPLICIT_OFFSET.test(start)
      ? DateTime.fromISO(start, { setZone: true })
      : undefined;
  if (!parsed?.isValid) {
    issues.push({
      field: 'start',
      code: 'invalid_date_time',
      message: 'start must be an ISO 8601 date-time with an offset or Z, such as "2026-03-29T09:00:00Z".',
    });
    return undefined;
  }
  if (parsed.second !== 0 || parsed.millisecond !== 0) {
    issues.push({
      field: 'start',
      code: 'not_whole_minute',
      message: `start must be on a whole minute (no seconds); got "${start}".`,
    });
    return undefined;
  }
  return parsed;
}

function isValidLength(length: unknown): length is number {
  return (
    Number.isInteger(length) &&
    (length as number) >= BOOKING_LIMITS.minLengthInMinutes &&
    (length as number) <= BOOKING_LIMITS.maxLengthInMinutes
  );
}

/** The interval a booking occupies: `lengthInMinutes` of elapsed time from `start`, whatever the clocks do. */
export function bookingInterval(start: string, lengthInMinutes: number): Interval {
  const issues: FieldIssue[] = [];
  const parsed = parseStart(start, issues);
  if (!isValidLength(lengthInMinutes)) {
    issues.push({
      field: 'lengthInMinutes',
      code: 'invalid_length',
      message: `lengthInMinutes must be a whole number from ${BOOKING_LIMITS.minLengthInMinutes} to ${BOOKING_LIMITS.maxLengthInMinutes}; got ${String(lengthInMinutes).slice(0, 40)}.`,
    });
  }
  if (!parsed || issues.length > 0) throw AVAILABILITY_ERRORS.invalidBooking(issues);
  const startMs = parsed.toMillis();
  return { start: new Date(startMs), end: new Date(startMs + lengthInMinutes * 60_000) };
}
