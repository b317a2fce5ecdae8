import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { validateAvailability } from './validate-availability.js';

function schedule(overrides: Record<string, unknown> = {}) {
  return {
    timeZone: 'Europe/Berlin',
    availability: [{ days: ['Monday', 'Tuesday'], startTime: '09:00', endTime: '17:00' }],
    overrides: [{ date: '2026-03-30', startTime: '12:00', endTime: '14:00' }],
    ...overrides,
  };
}

function weekly(startTime: string, endTime: string, days: unknown[] = ['Monday']) {
  return [{ days, startTime, endTime }];
}

function override(date: unknown, startTime: unknown = '09:00', endTime: unknown = '10:00') {
  return [{ date, startTime, endTime }];
}

function rejection(input: unknown): InputError {
  try {
    validateAvailability(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected the schedule to be rejected');
}

function issuesOf(input: unknown): string[] {
  return rejection(input).issues.map((issue) => `${issue.field}:${issue.code}`);
}

describe('validateAvailability', () => {
  it('turns a Cal.com v2 schedule into an Availability', () => {
    expect(validateAvailability(schedule())).toEqual({
      timeZone: 'Europe/Berlin',
      weekly: [{ days: ['Monday', 'Tuesday'], startTime: '09:00', endTime: '17:00' }],
      overrides: [{ date: '2026-03-30', startTime: '12:00', endTime: '14:00' }],
    });
  });

  it('treats missing overrides as none, and drops repeated days', () => {
    const { overrides: _, ...withoutOverrides } = schedule({
      availability: weekly('09:00', '17:00', ['Monday', 'Monday']),
    });
    expect(validateAvailability(withoutOverrides)).toMatchObject({ weekly: [{ days: ['Monday'] }], overrides: [] });
  });

  it('accepts 24:00 as the end of a range, and an override of 00:00-00:00 as a day off', () => {
    expect(() =>
      validateAvailability(
        schedule({ availability: weekly('22:00', '24:00'), overrides: override('2026-03-30', '00:00', '00:00') }),
      ),
    ).not.toThrow();
  });

  it('rejects a time zone that is not IANA, naming timeZone', () => {
    const error = rejection(schedule({ timeZone: 'Mars/Olympus' }));
    expect(error.code).toBe('invalid_availability');
    expect(error.message).toBe('timeZone must be an IANA time zone such as "Europe/Berlin"; got "Mars/Olympus".');
    expect(issuesOf(schedule({ timeZone: '+01:00' }))).toEqual(['timeZone:invalid_time_zone']);
    expect(issuesOf(schedule({ timeZone: 42 }))).toEqual(['timeZone:invalid_time_zone']);
    expect(issuesOf(schedule({ timeZone: undefined }))).toEqual(['timeZone:required']);
  });

  it('rejects times that are not HH:MM, naming the field', () => {
    for (const bad of ['9:00', '09:0', '12:60', '25:00', '24:00', '09:00:00', ' 09:00', '']) {
      expect(issuesOf(schedule({ availability: weekly(bad, '23:00') })), bad).toEqual([
        'availability[0].startTime:invalid_time',
      ]);
    }
    expect(issuesOf(schedule({ availability: weekly('09:00', '24:01') }))).toEqual([
      'availability[0].endTime:invalid_time',
    ]);
    expect(issuesOf(schedule({ overrides: override('2026-03-30', '09:00', 1000) }))).toEqual([
      'overrides[0].endTime:invalid_time',
    ]);
    expect(rejection(schedule({ availability: weekly('9:00', '17:00') })).message).toBe(
      'availability[0].startTime must be a time "HH:MM" from 00:00 to 23:59; got "9:00".',
    );
  });

  it('rejects a range that does not end after it starts', () => {
    expect(rejection(schedule({ availability: weekly('17:00', '09:00') })).message).toBe(
      'availability[0].endTime (09:00) must be after startTime (17:00).',
    );
    expect(issuesOf(schedule({ availability: weekly('09:00', '09:00') }))).toEqual([
      'availability[0].endTime:invalid_range',
    ]);
    // Only an override may use 00:00-00:00, for a day off.
    expect(issuesOf(schedule({ availability: weekly('00:00', '00:00') }))).toEqual([
      'availability[0].endTime:invalid_range',
    ]);
    expect(issuesOf(schedule({ overrides: override('2026-03-30', '10:00', '10:00') }))).toEqual([
      'overrides[0].endTime:invalid_range',
    ]);
  });

  it('rejects unknown weekdays and ranges without days', () => {
    expect(rejection(schedule({ availability: weekly('09:00', '17:00', ['Monday', 'Funday']) })).message).toBe(
      'availability[0].days[1] must be a weekday, Monday to Sunday; got "Funday".',
    );
    expect(issuesOf(schedule({ availability: weekly('09:00', '17:00', ['monday']) }))).toEqual([
      'availability[0].days[0]:invalid_weekday',
    ]);
    expect(issuesOf(schedule({ availability: weekly('09:00', '17:00', []) }))).toEqual([
      'availability[0].days:required',
    ]);
  });

  it('rejects dates that are not calendar dates', () => {
    for (const bad of ['2026-02-30', '2026-2-3', '2026-13-01', '30.03.2026', '2026-03-30T00:00', 20260330]) {
      expect(issuesOf(schedule({ overrides: override(bad) })), String(bad)).toEqual(['overrides[0].date:invalid_date']);
    }
    expect(rejection(schedule({ overrides: override('2026-02-30') })).message).toBe(
      'overrides[0].date must be a calendar date "YYYY-MM-DD"; got "2026-02-30".',
    );
    expect(() => validateAvailability(schedule({ overrides: override('2028-02-29') }))).not.toThrow();
  });

  it('allows at most 50 weekly ranges and 366 overrides', () => {
    const ranges = (n: number) => Array.from({ length: n }, () => weekly('09:00', '17:00')[0]);
    const days = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ date: `2026-01-01`, startTime: '09:00', endTime: `${10 + (i % 10)}:00` }));
    expect(() => validateAvailability(schedule({ availability: ranges(50), overrides: days(366) }))).not.toThrow();
    expect(rejection(schedule({ availability: ranges(51) })).message).toBe(
      'availability may hold at most 50 entries; got 51.',
    );
    expect(issuesOf(schedule({ overrides: days(367) }))).toEqual(['overrides:too_many']);
  });

  it('rejects what is not a schedule', () => {
    for (const bad of [null, 'schedule', [], 7]) expect(issuesOf(bad)).toEqual([':invalid_type']);
    expect(issuesOf({ timeZone: 'UTC' })).toEqual(['availability:required']);
    expect(issuesOf(schedule({ availability: {} }))).toEqual(['availability:invalid_type']);
    expect(issuesOf(schedule({ availability: ['09:00-17:00'] }))).toEqual(['availability[0]:invalid_type']);
    expect(issuesOf(schedule({ overrides: [null] }))).toEqual(['overrides[0]:invalid_type']);
  });

  it('lists every problem at once', () => {
    const error = rejection({
      timeZone: 'Nowhere',
      availability: [{ days: ['Sunday', 'Someday'], startTime: '18:00', endTime: '08:00' }],
      overrides: [{ date: '2026-04-31', startTime: '07:00', endTime: '25:00' }],
    });
    expect(error.issues.map((i) => `${i.field}:${i.code}`)).toEqual([
      'timeZone:invalid_time_zone',
      'availability[0].days[1]:invalid_weekday',
      'availability[0].endTime:invalid_range',
      'overrides[0].date:invalid_date',
      'overrides[0].endTime:invalid_time',
    ]);
    expect(error.message).toMatch(/^timeZone must be .* \(and 4 more problems\)$/);
  });
});
