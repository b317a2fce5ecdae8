import { describe, expect, it } from 'vitest';
import type { Availability, DateOverride, Interval, Weekday, WeeklyRange } from './types.js';
import { isWithinAvailability } from './within-availability.js';

const WORKDAYS: Weekday[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const EVERY_DAY: Weekday[] = [...WORKDAYS, 'Saturday', 'Sunday'];

function range(days: Weekday[], startTime: string, endTime: string): WeeklyRange {
  return { days, startTime, endTime };
}

function override(date: string, startTime: string, endTime: string): DateOverride {
  return { date, startTime, endTime };
}

function availability(timeZone: string, weekly: WeeklyRange[], overrides: DateOverride[] = []): Availability {
  return { timeZone, weekly, overrides };
}

function between(start: string, end: string): Interval {
  return { start: new Date(start), end: new Date(end) };
}

describe('isWithinAvailability', () => {
  // 2026-01-05 is a Monday; New York is on EST (UTC-5), so 09:00-17:00 is 14:00Z-22:00Z.
  const officeHours = availability('America/New_York', [range(WORKDAYS, '09:00', '17:00')]);

  it('reads ranges as wall-clock time in the schedule time zone', () => {
    expect(isWithinAvailability(officeHours, between('2026-01-05T14:00:00Z', '2026-01-05T14:30:00Z'))).toBe(true);
    expect(isWithinAvailability(officeHours, between('2026-01-05T13:30:00Z', '2026-01-05T14:30:00Z'))).toBe(false);
    expect(isWithinAvailability(officeHours, between('2026-01-05T09:00:00Z', '2026-01-05T10:00:00Z'))).toBe(false);
  });

  it('lets an interval end exactly where availability ends (half-open)', () => {
    expect(isWithinAvailability(officeHours, between('2026-01-05T21:30:00Z', '2026-01-05T22:00:00Z'))).toBe(true);
    expect(isWithinAvailability(officeHours, between('2026-01-05T21:30:00Z', '2026-01-05T22:01:00Z'))).toBe(false);
    expect(isWithinAvailability(officeHours, between('2026-01-05T22:00:00Z', '2026-01-05T22:30:00Z'))).toBe(false);
  });

  it('has nothing on days without ranges', () => {
    expect(isWithinAvailability(officeHours, between('2026-01-10T15:00:00Z', '2026-01-10T15:30:00Z'))).toBe(false);
  });

  it('joins ranges of a day that overlap or touch, but not across a gap', () => {
    const split = availability('UTC', [
      range(['Monday'], '09:00', '12:00'),
      range(['Monday'], '11:00', '13:00'),
      range(['Monday'], '13:00', '14:00'),
      range(['Monday'], '15:00', '16:00'),
    ]);
    expect(isWithinAvailability(split, between('2026-01-05T10:00:00Z', '2026-01-05T14:00:00Z'))).toBe(true);
    expect(isWithinAvailability(split, between('2026-01-05T13:30:00Z', '2026-01-05T15:30:00Z'))).toBe(false);
  });

  describe('across midnight', () => {
    // 2026-03-02 is a Monday.
    const lateShift = availability('Europe/Berlin', [
      range(['Monday'], '22:00', '24:00'),
      range(['Tuesday'], '00:00', '02:00'),
    ]);

    it('joins a range ending at 24:00 with one starting at 00:00 the next day', () => {
      expect(isWithinAvailability(lateShift, between('2026-03-02T22:00:00+01:00', '2026-03-03T01:00:00+01:00'))).toBe(
        true,
      );
      expect(isWithinAvailability(lateShift, between('2026-03-02T21:00:00Z', '2026-03-03T01:00:00Z'))).toBe(true);
      expect(isWithinAvailability(lateShift, between('2026-03-02T23:00:00+01:00', '2026-03-03T02:30:00+01:00'))).toBe(
        false,
      );
    });

    it('breaks when the next day has no range at midnight', () => {
      const mondayOnly = availability('Europe/Berlin', [
        range(['Monday'], '22:00', '24:00'),
        range(['Tuesday'], '00:30', '02:00'),
      ]);
      expect(isWithinAvailability(mondayOnly, between('2026-03-02T23:00:00+01:00', '2026-03-03T01:00:00+01:00'))).toBe(
        false,
      );
    });

    it('runs over whole days when every day is available', () => {
      const always = availability('Europe/Berlin', [range(EVERY_DAY, '00:00', '24:00')]);
      expect(isWithinAvailability(always, between('2026-03-27T12:00:00Z', '2026-04-02T12:00:00Z'))).toBe(true);
    });
  });

  describe('date overrides', () => {
    it('replace the weekly ranges of their date', () => {
      const schedule = availability(
        'UTC',
        [range(WORKDAYS, '09:00', '17:00')],
        [override('2026-01-05', '12:00', '14:00')],
      );
      expect(isWithinAvailability(schedule, between('2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z'))).toBe(false);
      expect(isWithinAvailability(schedule, between('2026-01-05T12:30:00Z', '2026-01-05T13:30:00Z'))).toBe(true);
      expect(isWithinAvailability(schedule, between('2026-01-06T10:00:00Z', '2026-01-06T11:00:00Z'))).toBe(true);
    });

    it('add availability on a day without weekly ranges, and several on one date join', () => {
      const schedule = availability(
        'UTC',
        [range(WORKDAYS, '09:00', '17:00')],
        [override('2026-01-10', '10:00', '11:00'), override('2026-01-10', '11:00', '12:00')],
      );
      expect(isWithinAvailability(schedule, between('2026-01-10T10:30:00Z', '2026-01-10T11:30:00Z'))).toBe(true);
    });

    it('take the whole day off with 00:00-00:00', () => {
      const schedule = availability(
        'UTC',
        [range(WORKDAYS, '09:00', '17:00')],
        [override('2026-01-05', '00:00', '00:00')],
      );
      expect(isWithinAvailability(schedule, between('2026-01-05T10:00:00Z', '2026-01-05T11:00:00Z'))).toBe(false);
      expect(isWithinAvailability(schedule, between('2026-01-06T10:00:00Z', '2026-01-06T11:00:00Z'))).toBe(true);
    });

    it('break a midnight-spanning range when the next day is off', () => {
      const schedule = availability(
        'UTC',
        [range(['Monday'], '22:00', '24:00'), range(['Tuesday'], '00:00', '02:00')],
        [override('2026-03-03', '00:00', '00:00')],
      );
      expect(isWithinAvailability(schedule, between('2026-03-02T23:00:00Z', '2026-03-03T01:00:00Z'))).toBe(false);
      expect(isWithinAvailability(schedule, between('2026-03-02T23:00:00Z', '2026-03-03T00:00:00Z'))).toBe(true);
    });
  });

  describe('daylight saving time', () => {
    // Berlin springs forward on 2026-03-29 at 02:00 CET (01:00Z) to 03:00 CEST.
    it('Europe/Berlin: ranges keep their wall-clock hours on both sides of the change', () => {
      const weekend = availability('Europe/Berlin', [range(['Saturday', 'Sunday'], '09:00', '17:00')]);
      expect(isWithinAvailability(weekend, between('2026-03-28T08:00:00Z', '2026-03-28T16:00:00Z'))).toBe(true);
      expect(isWithinAvailability(weekend, between('2026-03-29T07:00:00Z', '2026-03-29T15:00:00Z'))).toBe(true);
      expect(isWithinAvailability(weekend, between('2026-03-29T08:00:00Z', '2026-03-29T16:00:00Z'))).toBe(false);
    });

    it('Europe/Berlin: 01:00-04:00 on the spring-forward day lasts two hours', () => {
      const night = availability('Europe/Berlin', [], [override('2026-03-29', '01:00', '04:00')]);
      expect(isWithinAvailability(night, between('2026-03-29T01:00:00+01:00', '2026-03-29T04:00:00+02:00'))).toBe(true);
      expect(isWithinAvailability(night, between('2026-03-29T00:00:00Z', '2026-03-29T02:00:00Z'))).toBe(true);
      expect(isWithinAvailability(night, between('2026-03-29T00:00:00Z', '2026-03-29T02:01:00Z'))).toBe(false);
    });

    it('Europe/Berlin: the skipped hour 02:00-03:00 is never available', () => {
      const skipped = availability('Europe/Berlin', [], [override('2026-03-29', '02:00', '03:00')]);
      expect(isWithinAvailability(skipped, between('2026-03-29T00:59:00Z', '2026-03-29T01:00:00Z'))).toBe(false);
      expect(isWithinAvailability(skipped, between('2026-03-29T01:00:00Z', '2026-03-29T01:01:00Z'))).toBe(false);
    });

    // New York falls back on 2026-11-01 at 02:00 EDT (06:00Z) to 01:00 EST, so 01:00-02:00 happens twice.
    it('America/New_York: ranges keep their wall-clock hours on both sides of the change', () => {
      const weekend = availability('America/New_York', [range(['Saturday', 'Sunday'], '09:00', '17:00')]);
      expect(isWithinAvailability(weekend, between('2026-10-31T13:00:00Z', '2026-10-31T21:00:00Z'))).toBe(true);
      expect(isWithinAvailability(weekend, between('2026-11-01T14:00:00Z', '2026-11-01T22:00:00Z'))).toBe(true);
      expect(isWithinAvailability(weekend, between('2026-11-01T13:00:00Z', '2026-11-01T21:00:00Z'))).toBe(false);
    });

    it('America/New_York: 00:00-03:00 on the fall-back day lasts four hours', () => {
      const night = availability('America/New_York', [], [override('2026-11-01', '00:00', '03:00')]);
      expect(isWithinAvailability(night, between('2026-11-01T00:00:00-04:00', '2026-11-01T03:00:00-05:00'))).toBe(true);
      expect(isWithinAvailability(night, between('2026-11-01T04:00:00Z', '2026-11-01T08:00:00Z'))).toBe(true);
      expect(isWithinAvailability(night, between('2026-11-01T04:00:00Z', '2026-11-01T08:01:00Z'))).toBe(false);
    });

    it('America/New_York: a range in the repeated hour covers both of its occurrences', () => {
      const repeated = availability('America/New_York', [], [override('2026-11-01', '01:00', '02:00')]);
      expect(isWithinAvailability(repeated, between('2026-11-01T01:00:00-04:00', '2026-11-01T02:00:00-05:00'))).toBe(
        true,
      );
      const halfHour = availability('America/New_York', [], [override('2026-11-01', '00:00', '01:30')]);
      expect(isWithinAvailability(halfHour, between('2026-11-01T04:00:00Z', '2026-11-01T05:30:00Z'))).toBe(true);
      expect(isWithinAvailability(halfHour, between('2026-11-01T01:00:00-05:00', '2026-11-01T01:30:00-05:00'))).toBe(
        true,
      );
      // 01:30-02:00 EDT lies between the two.
      expect(isWithinAvailability(halfHour, between('2026-11-01T05:00:00Z', '2026-11-01T06:15:00Z'))).toBe(false);
    });

    it('America/New_York: the wall clock going back can leave a range mid-way', () => {
      // From 01:30 EDT the clock reaches 02:00 EDT and turns back to 01:00 EST, before the range's 01:30.
      const late = availability('America/New_York', [], [override('2026-11-01', '01:30', '03:00')]);
      expect(isWithinAvailability(late, between('2026-11-01T05:30:00Z', '2026-11-01T06:00:00Z'))).toBe(true);
      expect(isWithinAvailability(late, between('2026-11-01T05:30:00Z', '2026-11-01T06:45:00Z'))).toBe(false);
      expect(isWithinAvailability(late, between('2026-11-01T06:30:00Z', '2026-11-01T08:00:00Z'))).toBe(true);
    });
  });

  it('never holds an empty, inverted or invalid interval', () => {
    const always = availability('UTC', [range(EVERY_DAY, '00:00', '24:00')]);
    expect(isWithinAvailability(always, between('2026-01-05T10:00:00Z', '2026-01-05T10:00:00Z'))).toBe(false);
    expect(isWithinAvailability(always, between('2026-01-05T11:00:00Z', '2026-01-05T10:00:00Z'))).toBe(false);
    expect(isWithinAvailability(always, between('not a date', '2026-01-05T10:00:00Z'))).toBe(false);
  });
});
