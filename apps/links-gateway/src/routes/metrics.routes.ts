import type { FastifyRequest } from 'fastify';
import type { MemberRecord } from '@platform/accounts';
import { UNITS, readMetricsQuery, type MetricsQuery, type Scope, type Since } from '@platform/analytics';
import { InputError, NotFoundError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { parseShortlinkId, shortlinkJson, type GroupDoc, type LinkDoc, type QrCodeDoc } from '@platform/links';
import { accessIn } from '../access.js';
import type { GatewayDeps } from '../deps.js';
import { recently } from '../recent.js';

const querystring = (withSize: boolean) => ({
  type: 'object',
  properties: {
    unit: {
      type: 'string',
      default: 'day',
      description: `The time unit of the buckets: ${UNITS.join(', ')} (UTC; weeks start on Monday).`,
    },
    units: {
      type: 'string',
      default: '-1',
      description: 'How many units back from unit_reference; -1: all, since the link or group began.',
    },
    unit_reference: {
      type: 'string',
      description: 'ISO-8601 timestamp, the most recent time to report (default: now); URL-encoded (+ is %2B).',
    },
    ...(withSize
      ? { size: { type: 'string', default: '50', description: 'How many items to list (1 to 1000).' } }
      : {}),
  },
});

/** Where `units=-1` starts and what the buckets are of. */
interface Target {
  scope: Scope;
  began: number;
}

/**
 * How long the metrics operations reuse a link, group or QR code they read: a dashboard asks for several
 * metrics of one link at once, and each would read the same documents. A deleted link, or a member removed
 * from a group, is seen this much later by these read-only operations (never by edits).
 */
const LOOKUP_TTL_MS = 5_000;
const LOOKUP_CACHE_MAX = 10_000;

type Answer = (target: Target, query: MetricsQuery, since: Since, request: FastifyRequest) => Promise<unknown>;

/**
 * Every metrics operation of the spec for short links, groups and QR codes (their scans). Common parameters: `unit` (default day), `units` (default -1), `unit_reference` (ISO 8601, default
 * now, anything else a 400), `size` (default 50) where the spec marks it.
 */
export function metricsRoutes(app: HttpApp, deps: GatewayDeps) {
  const { analytics } = deps;
  const view = { apiBase: deps.publicBaseUrl, scheme: deps.scheme };
  const cache = { ttlMs: LOOKUP_TTL_MS, max: LOOKUP_CACHE_MAX };
  const [recentLink, recentGroup, recentQrCode] = [
    recently<LinkDoc>(cache),
    recently<GroupDoc>(cache),
    recently<QrCodeDoc>(cache),
  ];
  const getLink = (id: string) => recentLink(id, () => deps.store.getLink(id));
  const accessTo = async (caller: MemberRecord, guid: string) =>
    accessIn(await recentGroup(guid, () => deps.store.getGroup(guid)), caller);

  function readQuery(request: FastifyRequest, withSize: boolean): MetricsQuery {
    const read = readMetricsQuery(request.query as Record<string, unknown>, { now: Date.now(), size: withSize });
    if (read.ok) return read.value;
    const first = read.problems[0]!;
    throw new InputError(`INVALID_ARG_${first.field.toUpperCase()}`, first.message, {
      issues: read.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
    });
  }

  async function linkTarget(caller: MemberRecord, raw: string, custom: boolean): Promise<Target & { link: LinkDoc }> {
    const id = parseShortlinkId(raw);
    const link = id ? await getLink(`${id.domain}/${id.hash}`) : null;
    if (!link || link.organization_id !== caller.environment_id || (custom && !link.custom))
      throw new NotFoundError('NOT_FOUND', custom ? 'No such custom short link.' : 'No such short link.');
    await accessTo(caller, link.group_guid);
    return { link, scope: { kind: 'link', key: link._id }, began: link.created_at.getTime() };
  }

  async function groupTarget(caller: MemberRecord, guid: string): Promise<Target> {
    const { group } = await accessTo(caller, guid);
    return { scope: { kind: 'group', key: group._id }, began: group.created_at.getTime() };
  }

  async function answer(request: FastifyRequest, target: Target, withSize: boolean, respond: Answer) {
    const query = readQuery(request, withSize);
    return respond(target, query, query.units === -1 ? { began: target.began } : null, request);
  }

  async function qrTarget(caller: MemberRecord, id: string): Promise<Target> {
    const qr = await recentQrCode(id, () => deps.store.getQrCode(id));
    if (!qr || qr.organization_id !== caller.environment_id) throw new NotFoundError('NOT_FOUND', 'No such QR code.');
    await accessTo(caller, qr.group_guid);
    return { scope: { kind: 'qr', key: qr._id }, began: qr.created_at.getTime() };
  }

  const params = (names: string[]) => ({
    type: 'object',
    required: names,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', maxLength: 2048 }])),
  });

  function linkMetric(suffix: string, summary: string, withSize: boolean, respond: Answer) {
    for (const base of ['/v4/shortlinks', '/v4/bitlinks']) {
      app.get<{ Params: { domain: string; hash: string } }>(
        `${base}/:domain/:hash${suffix}`,
        {
          schema: {
            summary,
            tags: ['metrics'],
            params: params(['domain', 'hash']),
            querystring: querystring(withSize),
          },
        },
        async (request) =>
          answer(
            request,
            await linkTarget(request.caller!, `${request.params.domain}/${request.params.hash}`, false),
            withSize,
            respond,
          ),
      );
    }
  }

  function groupMetric(suffix: string, summary: string, withSize: boolean, respond: Answer) {
    app.get<{ Params: { group_guid: string } }>(
      `/v4/groups/:group_guid${suffix}`,
      { schema: { summary, tags: ['metrics'], params: params(['group_guid']), querystring: querystring(withSize) } },
      async (request) =>
        answer(request, await groupTarget(request.caller!, request.params.group_guid), withSize, respond),
    );
  }

  function qrMetric(suffix: string, summary: string, withSize: boolean, respond: Answer) {
    app.get<{ Params: { qrcode_id: string } }>(
      `/v4/qr-codes/:qrcode_id${suffix}`,
      { schema: { summary, tags: ['metrics'], params: params(['qrcode_id']), querystring: querystring(withSize) } },
      async (request) => answer(request, await qrTarget(request.caller!, request.params.qrcode_id), withSize, respond),
    );
  }

  // QR codes: the code's scans (redirects through its `?qr=` URL).
  qrMetric('/scans', 'Scans per unit, most recent first', false, async (t, q, since) => {
    const { data, ...envelope } = await analytics.series(t.scope, q, since, 'scans');
    return {
      scans: data.map((d) => ({ scans: d.count, date: d.ts })),
      units: envelope.units,
      unit: envelope.unit,
      unit_reference: envelope.unit_reference,
    };
  });
  qrMetric('/scans/summary', 'Scans over the units, in total', false, async (t, q, since) => {
    const { engagements, units, unit, unit_reference } = await analytics.engagementsSummary(t.scope, q, since);
    return { total_scans: engagements.scans, units, unit, unit_reference };
  });
  qrMetric('/scans/countries', 'Scans by country (ISO 3166-1 alpha-2)', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'scans', facet: 'country', name: 'countries' }),
  );
  qrMetric('/scans/cities', 'Scans by city', true, (t, q, since) => analytics.cities(t.scope, q, since, 'scans'));
  qrMetric('/scans/device_os', 'Scans by device operating system', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'scans', facet: 'os', name: 'device_os' }),
  );
  qrMetric('/scans/browsers', 'Scans by browser', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'scans', facet: 'browser', name: 'browsers' }),
  );

  // Short links: the link's clicks (a scan is counted apart, in engagements).
  linkMetric(
    '/engagements',
    'Engagements (clicks, scans, library button clicks) per unit, most recent first',
    false,
    (t, q, since) => analytics.engagements(t.scope, q, since),
  );
  linkMetric('/engagements/summary', 'Engagements over the units, in total', false, (t, q, since) =>
    analytics.engagementsSummary(t.scope, q, since),
  );
  linkMetric('/countries', 'Clicks by country (ISO 3166-1 alpha-2)', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'country', name: 'countries' }),
  );
  linkMetric('/cities', 'Clicks by city, with subregion, region and country', true, (t, q, since) =>
    analytics.cities(t.scope, q, since, 'clicks'),
  );
  linkMetric('/devices', 'Clicks by device type', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'device', name: 'devices', item: 'device_type' }),
  );
  linkMetric('/referrers', 'Clicks by referring page (without query), or direct', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'referrer', name: 'referrers' }),
  );
  linkMetric('/referrer_name', 'Clicks by referrer name (Twitter, Google, a domain), or direct', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'referrer_name', name: 'referrer_name' }),
  );
  linkMetric('/referring_domains', 'Clicks by referring domain, or direct', true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'referring_domain', name: 'referring_domains' }),
  );
  linkMetric('/referrers_by_domains', 'Referring pages grouped by their network', true, (t, q, since) =>
    analytics.referrersByNetwork(t.scope, q, since, 'clicks'),
  );

  for (const base of ['/v4/custom_shortlinks', '/v4/custom_bitlinks']) {
    app.get<{ Params: { domain: string; keyword: string } }>(
      `${base}/:domain/:keyword/clicks_by_destination`,
      {
        schema: {
          summary: 'Clicks of a custom short link by each of its destinations over time',
          tags: ['metrics'],
          params: params(['domain', 'keyword']),
          querystring: querystring(false),
        },
      },
      async (request) =>
        answer(
          request,
          await linkTarget(request.caller!, `${request.params.domain}/${request.params.keyword}`, true),
          false,
          (t, q, since) =>
            analytics.faceted(t.scope, q, since, {
              kind: 'clicks',
              facet: 'destination',
              name: 'destinations',
              limit: false,
            }),
        ),
    );
  }

  // Groups: every link of the group.
  groupMetric('/countries', "Clicks on the group's links by country", true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'country', name: 'countries' }),
  );
  groupMetric('/cities', "Clicks on the group's links by city", true, (t, q, since) =>
    analytics.cities(t.scope, q, since, 'clicks'),
  );
  groupMetric('/devices', "Clicks on the group's links by device type", true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'device', name: 'devices', item: 'device_type' }),
  );
  groupMetric(
    '/referring_networks',
    "Clicks on the group's links by referring network (twitter, facebook, ..., other, direct)",
    true,
    (t, q, since) =>
      analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'referring_network', name: 'referring_networks' }),
  );
  groupMetric('/referrers', "Clicks on the group's links by referring page", true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'referrer', name: 'referrers' }),
  );
  groupMetric('/engagements/top', "The group's links with the most engagements", true, async (t, q, since) => {
    const ranked = (await analytics.topLinks(t.scope, q, since)).slice(0, q.size);
    const docs = await Promise.all(ranked.map((r) => deps.store.getLink(r.value)));
    const present = ranked.flatMap((r, i) => (docs[i] ? [{ rank: r, doc: docs[i] }] : []));
    return {
      links: present.map((p) => shortlinkJson(p.doc, view)),
      sorted_links: present.map((p) => ({ clicks: p.rank.count, id: p.rank.value })),
    };
  });
  groupMetric('/engagements/over_time', "The group's engagements per unit, most recent first", false, (t, q, since) =>
    analytics.series(t.scope, q, since, 'engagements'),
  );
  groupMetric('/clicks', "The group's clicks per unit, most recent first", false, (t, q, since) =>
    analytics.series(t.scope, q, since, 'clicks'),
  );
  groupMetric('/shorten_counts', 'Short links created in the group per unit', false, (t, q, since) =>
    analytics.shortenCounts(t.scope, q, since),
  );
  groupMetric(
    '/links/clicks/over_time',
    "Clicks on the group's links per unit, most recent first",
    false,
    (t, q, since) => analytics.series(t.scope, q, since, 'clicks'),
  );
  groupMetric('/links/clicks/devices', "Clicks on the group's links by device type", true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'device', name: 'devices' }),
  );
  groupMetric('/links/clicks/referrers', "Clicks on the group's links by referring page", true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'referrer', name: 'referrers' }),
  );
  groupMetric('/links/clicks/countries', "Clicks on the group's links by country", true, (t, q, since) =>
    analytics.faceted(t.scope, q, since, { kind: 'clicks', facet: 'country', name: 'countries' }),
  );
  groupMetric('/links/clicks/cities', "Clicks on the group's links by city", true, (t, q, since) =>
    analytics.cities(t.scope, q, since, 'clicks'),
  );
}
