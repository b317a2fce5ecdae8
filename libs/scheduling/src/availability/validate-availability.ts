import type { FieldIssue } from '@platform/errors';
import { DateTime, IANAZone } from 'luxon';
import { AVAILABILITY_ERRORS } from './errors.js';
import { START_OF_DAY, isTimeOfDay, minutesOfDay } from './time-of-day.js';
import { WEEKDAYS, type Availability, type DateOverride, type Weekday, type WeeklyRange } from './types.js';

export const AVAILABILITY_LIMITS = {
  weeklyRanges: 50,
  overrides: 366,
} as const;

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

type Issues = FieldIssue[];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short, printable echo of what was sent, so a message never carries a whole payload. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function isWeekday(value: unknown): value is Weekday {
  return (WEEKDAYS as readonly unknown[]).includes(value);
}

// Intl on newer Node versions also accepts offsets ("+01:00") as time zones; a schedule needs a real IANA zone.
function isIanaTimeZone(value: string): boolean {
  return !/^[+-]/.test(value) && IANAZone.isValidZone(value);
}

function isCalendarDate(value: string): boolean {
  return CALENDAR_DATE.test(value) && DateTime.fromFormat(value, 'yyyy-MM-dd', { zone: 'utc' }).isValid;
}

function readTimeZone(value: unknown, issues: Issues): string | undefined {
  if (typeof value === 'string' && isIanaTimeZone(value)) return value;
  issues.push(
    value === undefined
      ? { field: 'timeZone', code: 'required', message: 'timeZone is required.' }
      : {
          field: 'timeZone',
          code: 'invalid_time_zone',
          message: `timeZone must be an IANA time zone such as "Europe/Berlin"; got ${shown(value)}.`,
        },
  );
  return undefined;
}

/**
 * Reads startTime and endTime of a range at `field`. An override may be "00:00"-"00:00" (the day off);
 * every other range must end after it starts.
 */
function readTimes(
  item: Record<string, unknown>,
  field: string,
  issues: Issues,
  { dayOffAllowed }: { dayOffAllowed: boolean },
) {
  const { startTime, endTime } = item;
  const start = typeof startTime === 'string' && isTimeOfDay(startTime, { endOfRange: false }) ? startTime : undefined;
  const end = typeof endTime === 'string' && isTimeOfDay(endTime, { endOfRange: true }) ? endTime : undefined;
  if (start === undefined) {
    issues.push({
      field: `${field}.startTime`,
      code: 'invalid_time',
      message: `${field}.startTime must be a time "HH:MM" from 00:00 to 23:59; got ${shown(startTime)}.`,
    });
  }
  if (end === undefined) {
    issues.push({
      field: `${field}.endTime`,
      code: 'invalid_time',
      message: `${field}.endTime must be a time "HH:MM" from 00:00 to 24:00; got ${shown(endTime)}.`,
    });
  }
  if (start === undefined || end === undefined) return undefined;
  const dayOff = dayOffAllowed && start === START_OF_DAY && end === START_OF_DAY;
  if (!dayOff && minutesOfDay(end) <= minutesOfDay(start)) {
    const hint = dayOffAllowed ? ' (or both "00:00" for a day off)' : '';
    issues.push({
      field: `${field}.endTime`,
      code: 'invalid_range',
      message: `${field}.endTime (${end}) must be after startTime (${start})${hint}.`,
    });
    return undefined;
  }
  return { startTime: start, endTime: end };
}

function readDays(value: unknown, field: string, issues: Issues): Weekday[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    issues.push({ field, code: 'required', message: `${field} must list at least one weekday (Monday to Sunday).` });
    return undefined;
  }
  const unknown = value.findIndex((day) => !isWeekday(day));
  if (unknown >= 0) {
    issues.push({
      field: `${field}[${unknown}]`,
      code: 'invalid_weekday',
      message: `${field}[${unknown}] must be a weekday, Monday to Sunday; got ${shown(value[unknown])}.`,
    });
    return undefined;
  }
  return [...new Set(value as Weekday[])];
}

function readList(value: unknown, field: string, max: number, issues: Issues): unknown[] | undefined {
  if (!Array.isArray(value)) {
    issues.push({ field, code: 'invalid_type', message: `${field} must be a list.` });
    return undefined;
  }
  if (value.length > max) {
    issues.push({ field, code: 'too_many', message: `${field} may hold at most ${max} entries; got ${value.length}.` });
    return undefined;
  }
  return value;
}

function readWeekly(value: unknown, issues: Issues): WeeklyRange[] | undefined {
  const list = readList(value ?? [], 'availability', AVAILABILITY_LIMITS.weeklyRanges, issues);
  if (!list) return undefined;
  const ranges: WeeklyRange[] = [];
  list.forEach((item, index) => {
    const field = `availability[${index}]`;
    if (!isRecord(item)) {
      issues.push({
        field,
        code: 'invalid_type',
        message: `${field} must be an object with days, startTime and endTime.`,
      });
      return;
    }
    const days = readDays(item.days, `${field}.days`, issues);
    const times = readTimes(item, field, issues, { dayOffAllowed: false });
    if (days && times) ranges.push({ days, ...times });
  });
  return ranges;
}

function readOverrides(value: unknown, issues: Issues): DateOverride[] | undefined {
  const list = readList(value ?? [], 'overrides', AVAILABILITY_LIMITS.overrides, issues);
  if (!list) return undefined;
  const overrides: DateOverride[] = [];
  list.forEach((item, index) => {
    const field = `overrides[${index}]`;
    if (!isRecord(item)) {
      issues.push({
        field,
        code: 'invalid_type',
        message: `${field} must be an object with date, startTime and endTime.`,
      });
      return;
    }
    const { date } = item;
    const dateValid = typeof date === 'string' && isCalendarDate(date);
    if (!dateValid) {
      issues.push({
        field: `${field}.date`,
        code: 'invalid_date',
        message: `${field}.date must be a calendar date "YYYY-MM-DD"; got ${shown(date)}.`,
      });
    }
    const times = readTimes(item, field, issues, { dayOffAllowed: true });
    if (dateValid && times) overrides.push({ date, ...times });
  });
  return overrides;
}

/**
 * Validates a schedule in the Cal.com API v2 shape, `{ timeZone, availability, overrides? }`, and returns it as
 * an Availability. Throws one InputError (code `invalid_availability`) whose issues name every bad field.
 */
export function validateAvailability(input: unknown): Availability {
  if (!isRecord(input)) {
    throw AVAILABILITY_ERRORS.invalidAvailability([
      {
        field: '',
        code: 'invalid_type',
        message: 'A schedule must be an object with timeZone, availability and overrides.',
      },
    ]);
  }
  const issues: Issues = [];
  if (input.availability === undefined) {
    issues.push({
      field: 'availability',
      code: 'required',
      message: 'availability is required (a list of weekly ranges, possibly empty).',
    });
  }
  const timeZone = readTimeZone(input.timeZone, issues);
  const weekly = readWeekly(input.availability, issues);
  const overrides = readOverrides(input.overrides, issues);
  if (issues.length > 0 || !timeZone || !weekly || !overrides) throw AVAILABILITY_ERRORS.invalidAvailability(issues);
  return { timeZone, weekly, overrides };
}
