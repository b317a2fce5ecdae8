import { describe, expect, it } from 'vitest';
import { defaultUsageStart, unitStart, unitStarts } from './usage.js';

const d = (s: string) => new Date(s);

describe('usage units', () => {
  it('starts days at UTC midnight, weeks on Monday and months on the first', () => {
    expect(unitStart(d('2026-11-24T23:59:59Z'), 'day').toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(unitStart(d('2026-11-29T12:00:00Z'), 'week').toISOString()).toBe('2026-11-23T00:00:00.000Z'); // a Sunday
    expect(unitStart(d('2026-11-23T00:00:00Z'), 'week').toISOString()).toBe('2026-11-23T00:00:00.000Z'); // a Monday
    expect(unitStart(d('2028-02-29T08:00:00Z'), 'month').toISOString()).toBe('2028-02-01T00:00:00.000Z');
  });

  it('lists every unit of a window, across month lengths and a leap day', () => {
    expect(
      unitStarts(d('2028-02-27T10:00:00Z'), d('2028-03-01T00:00:00Z'), 'day')!.map((x) => x.toISOString().slice(0, 10)),
    ).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(
      unitStarts(d('2026-01-31T00:00:00Z'), d('2026-04-01T00:00:00Z'), 'month')!.map((x) =>
        x.toISOString().slice(0, 7),
      ),
    ).toEqual(['2026-01', '2026-02', '2026-03', '2026-04']);
    expect(unitStarts(d('2020-01-01Z'), d('2026-01-01Z'), 'day')).toBeNull();
  });

  it('defaults to a year of months, 12 weeks or 30 days', () => {
    const end = d('2026-11-24T10:00:00Z');
    expect(unitStarts(defaultUsageStart(end, 'month'), end, 'month')).toHaveLength(12);
    expect(unitStarts(defaultUsageStart(end, 'week'), end, 'week')).toHaveLength(12);
    expect(unitStarts(defaultUsageStart(end, 'day'), end, 'day')).toHaveLength(30);
  });
});
