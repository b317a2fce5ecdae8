/** The counters `feature_usage` and `historical_usage` report, per group and calendar unit (UTC). */
export const USAGE_LIMITS = [
  { name: 'encodes', description: 'Short links created', customOnly: false },
  {
    name: 'custom_shortlinks',
    description: 'Short links created with a custom back-half on a branded domain',
    customOnly: true,
  },
] as const;

export type UsageLimitName = (typeof USAGE_LIMITS)[number]['name'];
export const USAGE_UNITS = ['day', 'week', 'month'] as const;
export type UsageUnit = (typeof USAGE_UNITS)[number];

/** At most this many units in one historical_usage answer (two years of weeks, a year and a month of days). */
export const MAX_USAGE_UNITS = 400;

/** The start of the unit holding `at`: UTC midnight, the Monday of its ISO week, or the first of its month. */
export function unitStart(at: Date, unit: UsageUnit): Date {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  if (unit === 'day') return new Date(day);
  if (unit === 'week') return new Date(day - ((at.getUTCDay() + 6) % 7) * 86_400_000);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextUnit(start: Date, unit: UsageUnit): Date {
  if (unit === 'day') return new Date(start.getTime() + 86_400_000);
  if (unit === 'week') return new Date(start.getTime() + 7 * 86_400_000);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/** The starts of the units from the one holding `from` to the one holding `to`, oldest first (null when more than the limit). */
export function unitStarts(from: Date, to: Date, unit: UsageUnit): Date[] | null {
  const starts: Date[] = [];
  for (let at = unitStart(from, unit); at.getTime() <= to.getTime(); at = nextUnit(at, unit)) {
    if (starts.length === MAX_USAGE_UNITS) return null;
    starts.push(at);
  }
  return starts;
}

/** The default window of historical_usage ending at `end`: a year of months, 12 weeks or 30 days. */
export function defaultUsageStart(end: Date, unit: UsageUnit): Date {
  if (unit === 'month') return new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 11, 1));
  if (unit === 'week') return new Date(unitStart(end, 'week').getTime() - 11 * 7 * 86_400_000);
  return new Date(unitStart(end, 'day').getTime() - 29 * 86_400_000);
}
