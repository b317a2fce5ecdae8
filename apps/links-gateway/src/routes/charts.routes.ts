import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MemberRecord } from '@platform/accounts';
import { isUnit, readMetricsQuery, type MetricsQuery, type Scope, type Unit } from '@platform/analytics';
import type { HttpApp } from '@platform/http';
import { parseShortlinkId } from '@platform/links';
import {
  escapeHtml,
  renderLoginPage,
  renderMessagePage,
  renderPage,
  type ChartPage,
  type TopList,
} from '../charts/render.js';
import type { GatewayDeps } from '../deps.js';

const COOKIE = 'links_session';
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
const LIST_SIZE = 8;

function cookieToken(header: string | undefined): string | null {
  for (const part of header?.split(';') ?? []) {
    const [key, ...value] = part.trim().split('=');
    if (key === COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** Only a path of these pages: never an absolute URL (no open redirect). */
const safeNext = (next: unknown) =>
  typeof next === 'string' && /^\/charts(\/[A-Za-z0-9._~%/-]*)?(\?[A-Za-z0-9._~%&=+-]*)?$/.test(next)
    ? next
    : '/charts';

/**
 * Analytics a person would rather look at than read (issue 16): a link's or a group's clicks and scans over
 * time as an SVG chart, with its top countries, referrers and devices (and, for a group, links), rendered on
 * the server and working without JavaScript. The access token is given once in a form and kept in an
 * HttpOnly cookie for these pages (or sent as the API's Authorization header).
 */
export function chartRoutes(app: HttpApp, deps: GatewayDeps) {
  const { analytics } = deps;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  async function callerOf(token: string | null | undefined): Promise<MemberRecord | null> {
    if (!token || token.length > 400) return null;
    const identity = await deps.accounts.verifyKey('links', token);
    if (!identity?.subject) return null;
    return (await deps.members.get(identity.environmentId, identity.subject)) ?? null;
  }
  const requestCaller = (request: FastifyRequest) =>
    callerOf(request.headers.authorization?.trim().replace(/^Bearer\s+/i, '') || cookieToken(request.headers.cookie));

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
  const toLogin = (request: FastifyRequest, reply: FastifyReply) =>
    reply.redirect(`/charts/login?next=${encodeURIComponent(safeNext(request.url))}`, 303);

  function readQuery(request: FastifyRequest): MetricsQuery | string {
    const raw = { ...(request.query as Record<string, unknown>) };
    const unit = isUnit(raw['unit']) ? raw['unit'] : 'day';
    if (raw['units'] === undefined) raw['units'] = String(DEFAULT_UNITS[unit]);
    const read = readMetricsQuery(raw, { now: Date.now(), size: false });
    return read.ok ? { ...read.value, size: LIST_SIZE } : read.problems.map((p) => p.message).join('; ');
  }

  async function render(
    scope: Scope,
    began: number,
    query: MetricsQuery,
    base: string,
    page: Pick<ChartPage, 'title' | 'subtitle' | 'back'>,
    extra: TopList[],
  ) {
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

  const page = { schema: { summary: 'Analytics page (HTML with an SVG chart)', tags: ['charts'] } };

  app.get('/charts/login', page, async (request, reply) =>
    html(reply, 200, renderLoginPage(safeNext((request.query as Record<string, unknown>)['next']))),
  );

  app.post('/charts/login', page, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const token = typeof body['token'] === 'string' ? body['token'].trim() : '';
    const next = safeNext(body['next']);
    if (!(await callerOf(token))) return html(reply, 403, renderLoginPage(next, 'That token is not valid.'));
    const secure = request.protocol === 'https' ? '; Secure' : '';
    reply.header(
      'set-cookie',
      `${COOKIE}=${encodeURIComponent(token)}; Path=/charts; HttpOnly; SameSite=Lax; Max-Age=43200${secure}`,
    );
    return reply.redirect(next, 303);
  });

  app.get('/charts', page, async (request, reply) => {
    const caller = await requestCaller(request);
    if (!caller) return toLogin(request, reply);
    const groups = await deps.store.groupsOfUser(caller._id);
    const items = groups
      .map((g) => `<li><a href="/charts/groups/${encodeURIComponent(g._id)}">${escapeHtml(g.name)}</a></li>`)
      .join('');
    return html(reply, 200, renderMessagePage('Your groups', `<ul class="card">${items || '<li>No groups</li>'}</ul>`));
  });

  app.get<{ Params: { group_guid: string } }>('/charts/groups/:group_guid', page, async (request, reply) => {
    const caller = await requestCaller(request);
    if (!caller) return toLogin(request, reply);
    const group = await deps.store.getGroup(request.params.group_guid);
    if (
      !group ||
      group.organization_id !== caller.environment_id ||
      !group.members.some((m) => m.user_id === caller._id)
    ) {
      return html(reply, 403, renderMessagePage('Not yours', '<p>You are not a member of this group.</p>'));
    }
    const query = readQuery(request);
    if (typeof query === 'string')
      return html(reply, 400, renderMessagePage('Bad range', `<p>${escapeHtml(query)}</p>`));
    const scope: Scope = { kind: 'group', key: group._id };
    const since = query.units === -1 ? await analytics.since(scope, group.created_at.getTime()) : null;
    const top = (await analytics.topLinks(scope, query, since)).slice(0, LIST_SIZE);
    const links: TopList = {
      title: 'Top links',
      rows: top.map((t) => ({
        label: t.value,
        count: t.count,
        href: `/charts/shortlinks/${t.value}?unit=${query.unit}&units=${query.units}`,
      })),
    };
    const base = `/charts/groups/${encodeURIComponent(group._id)}`;
    return html(
      reply,
      200,
      await render(
        scope,
        group.created_at.getTime(),
        query,
        base,
        { title: group.name, subtitle: `Group ${group._id}`, back: { label: 'Your groups', href: '/charts' } },
        [links],
      ),
    );
  });

  app.get<{ Params: { domain: string; hash: string } }>(
    '/charts/shortlinks/:domain/:hash',
    page,
    async (request, reply) => {
      const caller = await requestCaller(request);
      if (!caller) return toLogin(request, reply);
      const id = parseShortlinkId(`${request.params.domain}/${request.params.hash}`);
      const link = id ? await deps.store.getLink(`${id.domain}/${id.hash}`) : null;
      const group =
        link && link.organization_id === caller.environment_id ? await deps.store.getGroup(link.group_guid) : null;
      if (!link || !group || !group.members.some((m) => m.user_id === caller._id))
        return html(
          reply,
          404,
          renderMessagePage('No such short link', '<p>There is no such short link in your groups.</p>'),
        );
      const query = readQuery(request);
      if (typeof query === 'string')
        return html(reply, 400, renderMessagePage('Bad range', `<p>${escapeHtml(query)}</p>`));
      const base = `/charts/shortlinks/${link._id}`;
      return html(
        reply,
        200,
        await render(
          { kind: 'link', key: link._id },
          link.created_at.getTime(),
          query,
          base,
          {
            title: link._id,
            subtitle: link.long_url,
            back: { label: group.name, href: `/charts/groups/${encodeURIComponent(group._id)}` },
          },
          [],
        ),
      );
    },
  );
}
