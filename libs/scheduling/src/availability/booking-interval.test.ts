import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { bookingInterval } from './booking-interval.js';

function issuesOf(start: string, lengthInMinutes: number): string[] {
  try {
    bookingInterval(start, lengthInMinutes);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe('invalid_booking');
    return (error as InputError).issues.map((issue) => `${issue.field}:${issue.code}`);
  }
  return [];
}

describe('bookingInterval', () => {
  it('runs lengthInMinutes from a start given in UTC or with an offset', () => {
    expect(bookingInterval('2026-01-05T09:00:00Z', 30)).toEqual({
      start: new Date('2026-01-05T09:00:00Z'),
      end: new Date('2026-01-05T09:30:00Z'),
    });
    expect(bookingInterval('2026-01-05T09:00+05:30', 60)).toEqual({
      start: new Date('2026-01-05T03:30:00Z'),
      end: new Date('2026-01-05T04:30:00Z'),
    });
    expect(bookingInterval('2026-01-05T09:00:00.000-05:00', 1440).end).toEqual(new Date('2026-01-06T14:00:00Z'));
  });

  it('counts elapsed minutes, not wall-clock time, across a DST change', () => {
    // 01:30 CET + 60 minutes on the spring-forward night is 03:30 CEST.
    expect(bookingInterval('2026-03-29T01:30:00+01:00', 60).end).toEqual(new Date('2026-03-29T03:30:00+02:00'));
  });

  it('rejects a start that is not an ISO 8601 date-time with an offset', () => {
    for (const bad of [
      'tomorrow',
      '',
      '2026-01-05',
      '2026-01-05T09:00',
      '2026-01-05T09:00:00',
      '2026-02-30T09:00Z',
      '2026-01-05T25:00Z',
      `2026-01-05T09:00:00${'0'.repeat(80)}Z`,
    ]) {
      expect(issuesOf(bad, 30), bad).toEqual(['start:invalid_date_time']);
    }
    expect(() => bookingInterval('tomorrow', 30)).toThrow('start must be an ISO 8601 date-time with an offset or Z');
  });

  it('rejects a start that is not on a whole minute', () => {
    expect(issuesOf('2026-01-05T09:00:30Z', 30)).toEqual(['start:not_whole_minute']);
    expect(issuesOf('2026-01-05T09:00:00.001Z', 30)).toEqual(['start:not_whole_minute']);
    expect(() => bookingInterval('2026-01-05T09:00:30Z', 30)).toThrow(
      'start must be on a whole minute (no seconds); got "2026-01-05T09:00:30Z".',
    );
  });

  it('accepts lengths of 1 to 1440 whole minutes only', () => {
    expect(issuesOf('2026-01-05T09:00Z', 1)).toEqual([]);
    expect(issuesOf('2026-01-05T09:00Z', 1440)).toEqual([]);
    for (const bad of [0, -30, 1441, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(issuesOf('2026-01-05T09:00Z', bad), String(bad)).toEqual(['lengthInMinutes:invalid_length']);
    }
    expect(() => bookingInterval('2026-01-05T09:00Z', 0)).toThrow(
      'lengthInMinutes must be a whole number from 1 to 1440; got 0.',
    );
  });

  it('reports a bad start and a bad length together', () => {
    expect(issuesOf('soon', 0)).toEqual(['start:invalid_date_time', 'lengthInMinutes:invalid_length']);
  });
});
