import { Type, type HttpApp } from '@platform/http';
import { parseIsoTimestamp } from '@platform/analytics';
import { bitlyTime, defaultUsageStart, nextUnit, unitStarts } from '@platform/links';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { BitlyTime, errorResponses, security } from '../../schemas.js';
import { invalid, limitsNamed } from './group.js';
import { GroupParams, LimitNameQuery, UsageDate, UsageUnit } from './schemas.js';

const HistoricalUsage = Type.Object({
  group_guid: Type.String(),
  unit: UsageUnit,
  start_date: BitlyTime,
  end_date: BitlyTime,
  historical_limit_usage: Type.Array(
    Type.Object({
      name: Type.String(),
      usage: Type.Array(Type.Object({ count: Type.Integer(), unit_start: BitlyTime })),
    }),
  ),
});

/** A date or time as the schema let it through (`2026-11-01`, `2026-11-01 10:00+0100`); empty is none. */
function readDate(raw: string | undefined): Date | null {
  return raw === undefined || raw === '' ? null : new Date(parseIsoTimestamp(raw.replace(' ', 'T'))!);
}

export function getGroupHistoricalUsageRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/groups/:group_guid/historical_usage',
    {
      schema: {
        summary: "A group's use of each limited feature per day, week or month",
        tags: ['groups'],
        security,
        params: GroupParams,
        querystring: Type.Object({
          name: Type.Optional(LimitNameQuery),
          unit: Type.Optional(UsageUnit),
          start_date: Type.Optional(UsageDate),
          end_date: Type.Optional(UsageDate),
        }),
        response: { 200: HistoricalUsage, ...errorResponses },
      },
    },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      const limits = limitsNamed(request.query.name);
      const unit = request.query.unit ?? 'month';
      const end = readDate(request.query.end_date) ?? new Date();
      const start = readDate(request.query.start_date) ?? defaultUsageStart(end, unit);
      if (start.getTime() > end.getTime()) throw invalid('start_date', 'start_date must not be after end_date');
      const starts = unitStarts(start, end, unit);
      if (!starts)
        throw invalid('start_date', 'The window holds too many units: use a larger unit or a shorter window');
      const usage = await Promise.all(
        limits.map(async (l) => ({
          name: l.name,
          usage: await Promise.all(
            starts.map(async (at) => ({
              count: await deps.store.countLinksCreated(
                group.organization_id,
                group._id,
                at,
                nextUnit(at, unit),
                l.customOnly,
              ),
              unit_start: bitlyTime(at),
            })),
          ),
        })),
      );
      return {
        group_guid: group._id,
        unit,
        start_date: bitlyTime(start),
        end_date: bitlyTime(end),
        historical_limit_usage: usage,
      };
    },
  );
}
