import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MemberRecord } from '@platform/accounts';
import { isUnit, readMetricsQuery, type MetricsQuery, type Scope, type Unit } from '@platform/analytics';
import { Type } from '@platform/http';
import { renderPage, type ChartPage, type TopList } from '../../charts/render.js';
import type { RouteDeps } from '../../deps.js';

export const COOKIE = 'links_session';
/** What a page shows when the address names no range. */
const DEFAULT_UNITS: Record<Unit, number> = { minute: 60, hour: 48, day: 30, week: 26, month: 12 };
const RANGES: Array<{ label: string; unit: Unit; units: number }> = [
  { label: 'Last hour', unit: 'minute', units: 60 },
  { label: 'Last 48 hours', unit: 'hour', units: 48 },
  { label: 'Last 30 days', unit: 'day', units: 30 },
  { label: 'Last 26 weeks', unit: 'week', units: 26 },
  { label: 'Last 12 months', unit: 'month', units: 12 },
  { label: 'Since the start', unit: 'day', units: -1 },
];
export const LIST_SIZE = 8;

/** Pages, not API: out of the OpenAPI document. */
export const page = { tags: ['charts'], hide: true };

/**
 * The range of a chart. Texts only: the page itself answers a bad range (400 in HTML), as the API's JSON
 * errors are no answer for a browser.
 */
export const RangeQuery = Type.Object({
  unit: Type.Optional(Type.String({ description: 'minute, hour, day (default), week or month.' })),
  units: Type.Optional(Type.String({ description: 'How many units back; -1: since the start.' })),
  unit_reference: Type.Optional(Type.String({ description: 'The most recent time shown (default: now).' })),
});

function cookieToken(header: string | undefined): string | null {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** Only a path of these pages: never an absolute URL (no open redirect). */
export const safeNext = (next: unknown) =>
  typeof next === 'string' && /^\/charts(\/[A-Za-z0-9._~%/-]*)?(\?[A-Za-z0-9._~%&=+-]*)?$/.test(next)
    ? next
    : '/charts';

export const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

export const toLogin = (request: FastifyRequest, reply: FastifyReply) =>
  reply.redirect(`/charts/login?next=${encodeURIComponent(safeNext(request.url))}`, 303);

/** The user a token acts for: a links key, given in the login form. */
export async function callerOf(deps: RouteDeps, token: string | null | undefined): Promise<MemberRecord | null> {
  if (!token || token.length > 400) return null;
  const identity = await deps.accounts.verifyKey('links', token);
  if (!identity?.subject) return null;
  return (await deps.members.get(identity.environmentId, identity.subject)) ?? null;
}

/** The API's Authorization header, or the cookie the login form set. */
export const requestCaller = (deps: RouteDeps, request: FastifyRequest) =>
  callerOf(
    deps,
    request.headers.authorization?.trim().replace(/^Bearer\s+/i, '') || cookieToken(request.headers.cookie),
  );

/** The range asked for, or the sentence saying what is wrong with it. */
export function readRange(query: Record<string, unknown>): MetricsQuery | string {
  const raw = { ...query };
  const unit = isUnit(raw['unit']) ? raw['unit'] : 'day';
  if (raw['units'] === undefined) raw['units'] = String(DEFAULT_UNITS[unit]);
  const read = readMetricsQuery(raw, { now: Date.now(), size: false });
  return read.ok ? { ...read.value, size: LIST_SIZE } : read.problems.map((p) => p.message).join('; ');
}

/** A chart page: engagements over the range, top countries, referrers and devices, and `extra` lists. */
export async function renderChartPage(
  deps: RouteDeps,
  scope: Scope,
  began: number,
  query: MetricsQuery,
  base: string,
  page: Pick<ChartPage, 'title' | 'subtitle' | 'back'>,
  extra: TopList[],
) {
  const { analytics } = deps;
  const since = query.units === -1 ? await analytics.since(scope, began) : null;
  const [engagements, countries, referrers, devices] = await Promise.all([
    analytics.engagements(scope, query, since),
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'country', name: 'countries' }),
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'referrer', name: 'referrers' }),
    analytics.faceted(scope, query, since, { kind: 'clicks', facet: 'device', name: 'devices' }),
  ]);
  const points = engagements.engagements.map((e) => ({
    at: Date.parse(e.date.replace('+0000', 'Z')),
    clicks: e.engagements.clicks,
    scans: e.engagements.scans,
  }));
  const rows = (metrics: Array<Record<string, unknown>>) =>
    metrics.map((m) => ({ label: String(m['value']), count: Number(m['clicks']) }));
  return renderPage({
    ...page,
    unit: query.unit,
    units: query.units,
    points,
    totals: points.reduce((t, p) => ({ clicks: t.clicks + p.clicks, scans: t.scans + p.scans }), {
      clicks: 0,
      scans: 0,
    }),
    lists: [
      { title: 'Top countries', rows: rows(countries.metrics) },
      { title: 'Top referrers', rows: rows(referrers.metrics) },
      { title: 'Devices', rows: rows(devices.metrics) },
      ...extra,
    ],
    ranges: RANGES.map((r) => ({
      label: r.label,
      href: `${base}?unit=${r.unit}&units=${r.units}`,
      current: r.unit === query.unit && r.units === query.units,
    })),
  });
}
