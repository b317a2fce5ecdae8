import {
  DEFAULT_SIZE,
  MAX_SIZE,
  MAX_UNITS,
  UNITS,
  isoTimestampPattern,
  readMetricsQuery,
  type MetricsQuery,
  type Unit,
} from '@platform/analytics';
import { InputError } from '@platform/errors';
import { Type, type Static } from '@platform/http';

const unit = (options: object = {}) =>
  Type.Union(
    UNITS.map((u) => Type.Literal(u)),
    { description: 'The time unit of the buckets (UTC; weeks start on Monday).', ...options },
  );

/** A time unit, as the answers name it. */
export const UnitSchema = unit();

const common = {
  unit: Type.Optional(unit({ default: 'day', errorMessage: `must be one of ${UNITS.join(', ')}` })),
  units: Type.Optional(
    Type.Integer({
      minimum: -1,
      maximum: MAX_UNITS,
      not: { const: 0 },
      default: -1,
      description: 'How many units back from unit_reference; -1: all, since the link or group began.',
      errorMessage: `must be -1 (all) or from 1 to ${MAX_UNITS}`,
    }),
  ),
  unit_reference: Type.Optional(
    Type.String({
      // Empty is now: the official bitly client sends `unit_reference=` when it is given none.
      pattern: `^$|${isoTimestampPattern()}`,
      description: 'ISO-8601 timestamp, the most recent time to report (empty or absent: now); URL-encoded (+ is %2B).',
      errorMessage: 'must be an ISO-8601 timestamp such as 2024-02-29T13:45:00+0000 (URL-encoded: + is %2B)',
    }),
  ),
};

/** The common parameters of the metrics operations. Other parameters are ignored, as Bitly does. */
export const MetricsQuerystring = Type.Object(common);

/** The same, for the operations that list items. */
export const ListMetricsQuerystring = Type.Object({
  ...common,
  size: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_SIZE,
      default: DEFAULT_SIZE,
      description: `How many items to list (1 to ${MAX_SIZE}).`,
      errorMessage: `must be from 1 to ${MAX_SIZE}`,
    }),
  ),
});

export type MetricsQuerystring = Static<typeof MetricsQuerystring> & { size?: number };

/** The query as the reports take it; unit_reference is read by the library (no 30 February, no unencoded +). */
export function metricsQueryOf(query: MetricsQuerystring): MetricsQuery {
  const read = readMetricsQuery({ unit_reference: query.unit_reference }, { now: Date.now(), size: false });
  if (!read.ok) {
    const first = read.problems[0]!;
    throw new InputError(`INVALID_ARG_${first.field.toUpperCase()}`, first.message, {
      issues: read.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
    });
  }
  const unit: Unit = query.unit ?? 'day';
  return { ...read.value, unit, units: query.units ?? -1, size: query.size ?? DEFAULT_SIZE };
}
