import { UNITS, addUnits, bucketStart, bucketsBetween, isUnit, parseIsoTimestamp, type Unit } from './buckets.js';

/** The common query parameters of the metrics operations, read. */
export interface MetricsQuery {
  unit: Unit;
  /** How many units back from the reference's; -1: all (since the link or group began). */
  units: number;
  /** The most recent time the metrics are for (epoch milliseconds). */
  reference: number;
  /** How many items a faceted answer lists. */
  size: number;
}

export interface QueryProblem {
  field: string;
  message: string;
}

export const DEFAULT_SIZE = 50;
export const MAX_SIZE = 1000;
/** The longest series one request may ask for (a year of hours is 8 784). */
export const MAX_UNITS = 10_000;

type RawQuery = Record<string, unknown>;

function single(raw: RawQuery, field: string, problems: QueryProblem[]): string | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    problems.push({ field, message: `${field} must be given once` });
    return undefined;
  }
  return value;
}

function integer(
  raw: RawQuery,
  field: string,
  problems: QueryProblem[],
  fallback: number,
  ok: (n: number) => boolean,
  rule: string,
): number {
  const value = single(raw, field, problems);
  if (value === undefined || value === '') return fallback;
  const n = /^-?\d{1,9}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || !ok(n)) {
    problems.push({ field, message: `${field} must be ${rule}` });
    return fallback;
  }
  return n;
}

/**
 * `unit` (default day), `units` (default -1: all), `unit_reference` (ISO 8601, default now; anything else is
 * refused, never guessed) and, where the operation lists items, `size` (default 50). Other parameters are
 * ignored, as Bitly does.
 */
export function readMetricsQuery(
  raw: RawQuery,
  options: { now: number; size?: boolean },
): { ok: true; value: MetricsQuery } | { ok: false; problems: QueryProblem[] } {
  const problems: QueryProblem[] = [];
  const unitRaw = single(raw, 'unit', problems);
  let unit: Unit = 'day';
  if (unitRaw !== undefined && unitRaw !== '') {
    if (isUnit(unitRaw)) unit = unitRaw;
    else problems.push({ field: 'unit', message: `unit must be one of ${UNITS.join(', ')}` });
  }
  const units = integer(
    raw,
    'units',
    problems,
    -1,
    (n) => n === -1 || (n >= 1 && n <= MAX_UNITS),
    `-1 (all) or from 1 to ${MAX_UNITS}`,
  );
  // Operations that list no items have no size: theirs is ignored, like any parameter they do not take.
  const size =
    options.size === false
      ? DEFAULT_SIZE
      : integer(raw, 'size', problems, DEFAULT_SIZE, (n) => n >= 1 && n <= MAX_SIZE, `from 1 to ${MAX_SIZE}`);
  let reference = options.now;
  const referenceRaw = single(raw, 'unit_reference', problems);
  if (referenceRaw !== undefined && referenceRaw !== '') {
    const parsed = parseIsoTimestamp(referenceRaw);
    if (parsed === null)
      problems.push({
        field: 'unit_reference',
        message:
          'unit_reference must be an ISO-8601 timestamp such as 2024-02-29T13:45:00+0000 (URL-encoded: + is %2B)',
      });
    else reference = parsed;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { unit, units, reference, size } };
}

/**
 * The buckets a query covers, as starts, most recent first: `units` buckets ending with the one that holds the
 * reference, or with -1 every bucket from the one holding `since` (when the link or group began, or its
 * oldest data, whichever is first) to the reference's, at most {@link MAX_UNITS} of them.
 */
export function queryBuckets(query: MetricsQuery, since: number | null): number[] {
  const last = bucketStart(query.unit, query.reference);
  const count =
    query.units === -1
      ? since === null
        ? 0
        : Math.min(MAX_UNITS, bucketsBetween(query.unit, since, query.reference))
      : query.units;
  return Array.from({ length: count }, (_, i) => addUnits(query.unit, last, -i));
}
