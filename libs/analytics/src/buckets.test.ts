import { describe, expect, it } from 'vitest';
import {
  addUnits,
  bucketSeries,
  bucketStart,
  bucketsBetween,
  formatTime,
  isoTimestampPattern,
  parseIsoTimestamp,
} from './buckets.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('bucket boundaries (UTC)', () => {
  it('truncates to the minute, hour and day', () => {
    expect(iso(bucketStart('minute', at('2024-03-10T13:45:59.999Z')))).toBe('2024-03-10T13:45:00.000Z');
    expect(iso(bucketStart('hour', at('2024-03-10T13:45:59.999Z')))).toBe('2024-03-10T13:00:00.000Z');
    expect(iso(bucketStart('day', at('2024-03-10T23:59:59.999Z')))).toBe('2024-03-10T00:00:00.000Z');
  });

  it('starts weeks on Monday 00:00 UTC', () => {
    // 2024-03-10 is a Sunday, 2024-03-11 a Monday.
    expect(iso(bucketStart('week', at('2024-03-10T23:59:59Z')))).toBe('2024-03-04T00:00:00.000Z');
    expect(iso(bucketStart('week', at('2024-03-11T00:00:00Z')))).toBe('2024-03-11T00:00:00.000Z');
    expect(iso(bucketStart('week', at('2024-03-13T12:00:00Z')))).toBe('2024-03-11T00:00:00.000Z');
    // A week across a year's end, and the epoch (a Thursday).
    expect(iso(bucketStart('week', at('2025-01-01T08:00:00Z')))).toBe('2024-12-30T00:00:00.000Z');
    expect(iso(bucketStart('week', 0))).toBe('1969-12-29T00:00:00.000Z');
  });

  it('starts months on the 1st, whatever their length', () => {
    expect(iso(bucketStart('month', at('2024-02-29T23:59:59Z')))).toBe('2024-02-01T00:00:00.000Z');
    expect(iso(addUnits('month', at('2024-01-01T00:00:00Z'), 1))).toBe('2024-02-01T00:00:00.000Z');
    expect(iso(addUnits('month', at('2024-03-01T00:00:00Z'), -1))).toBe('2024-02-01T00:00:00.000Z');
    expect(iso(addUnits('month', at('2024-01-01T00:00:00Z'), -13))).toBe('2022-12-01T00:00:00.000Z');
    expect(addUnits('month', at('2024-02-01T00:00:00Z'), 1) - at('2024-02-01T00:00:00Z')).toBe(29 * 86_400_000);
    expect(addUnits('month', at('2023-02-01T00:00:00Z'), 1) - at('2023-02-01T00:00:00Z')).toBe(28 * 86_400_000);
  });

  it('counts the buckets between two times, both ends included', () => {
    expect(bucketsBetween('day', at('2024-02-28T23:00:00Z'), at('2024-03-01T01:00:00Z'))).toBe(3); // leap day between
    expect(bucketsBetween('day', at('2023-02-28T23:00:00Z'), at('2023-03-01T01:00:00Z'))).toBe(2);
    expect(bucketsBetween('month', at('2023-11-15T00:00:00Z'), at('2024-02-29T00:00:00Z'))).toBe(4);
    expect(bucketsBetween('week', at('2024-03-10T00:00:00Z'), at('2024-03-11T00:00:00Z'))).toBe(2);
    expect(bucketsBetween('hour', at('2024-03-10T05:00:00Z'), at('2024-03-10T04:00:00Z'))).toBe(0);
  });

  it('lists a series most recent first', () => {
    expect(bucketSeries('day', at('2024-03-01T10:00:00Z'), 3).map(iso)).toEqual([
      '2024-03-01T00:00:00.000Z',
      '2024-02-29T00:00:00.000Z',
      '2024-02-28T00:00:00.000Z',
    ]);
    expect(bucketSeries('month', at('2024-03-31T10:00:00Z'), 2).map(iso)).toEqual([
      '2024-03-01T00:00:00.000Z',
      '2024-02-01T00:00:00.000Z',
    ]);
  });

  it("formats times as Bitly's +0000 form", () => {
    expect(formatTime(at('2024-02-29T13:05:09.870Z'))).toBe('2024-02-29T13:05:09+0000');
  });
});

describe('ISO-8601 unit_reference', () => {
  it.each([
    ['2024-02-29T13:45:00Z', '2024-02-29T13:45:00.000Z'],
    ['2024-02-29T13:45:00+0000', '2024-02-29T13:45:00.000Z'],
    ['2024-02-29T13:45:00+05:30', '2024-02-29T08:15:00.000Z'],
    ['2024-02-29T13:45:00-0800', '2024-02-29T21:45:00.000Z'],
    ['2024-03-01T01:00:00+02', '2024-02-29T23:00:00.000Z'],
    ['2024-02-29T13:45:00.123456Z', '2024-02-29T13:45:00.123Z'],
    ['2024-02-29T13:45', '2024-02-29T13:45:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('reads %s', (raw, expected) => {
    expect(iso(parseIsoTimestamp(raw)!)).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '1700000000',
    '2023-02-29T00:00:00Z',
    '2024-13-01',
    '2024-01-01T24:00:00Z',
    '2024-01-01T10:00:00 0000',
    '2024-01-01T10:00:00+25:00',
    '2024-1-1',
  ])('refuses %j', (raw) => {
    expect(parseIsoTimestamp(raw)).toBeNull();
  });
});

describe('isoTimestampPattern', () => {
  it('accepts exactly what parseIsoTimestamp reads', () => {
    const pattern = new RegExp(isoTimestampPattern(), 'u');
    const samples: string[] = [];
    for (const year of ['0000', '0004', '1900', '2000', '2023', '2024', '2100'])
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++)
          samples.push(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
    for (const time of ['T00:00', 'T23:59:59', 'T24:00', 'T12:60', 'T12:00:60', 't01:02:03.123456789', 'T01:02:03,5'])
      for (const offset of ['', 'Z', 'z', '+05:30', '+0530', '-08', '+18:59', '+19', '-0060'])
        samples.push(`2024-02-29${time}${offset}`, `2023-02-29${time}${offset}`);
    for (const raw of samples) expect([raw, pattern.test(raw)]).toEqual([raw, parseIsoTimestamp(raw) !== null]);
  });
});
