import type { MemberRecord } from '@platform/accounts';
import { NotFoundError } from '@platform/errors';
import { Type } from '@platform/http';
import { parseShortlinkId } from '@platform/links';
import type { LinksRoute, RouteDeps } from '../../deps.js';
import { metricLookups } from '../../metrics/lookups.js';
import { answerMetric, metricSchema, type MetricSpec, type Target } from '../../metrics/route.js';

const LinkParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  hash: Type.String({ minLength: 1, maxLength: 400 }),
});

/** A link of the caller's organization in a group they are in (a custom one only if `custom`), else 404 or 403. */
export async function linkTarget(deps: RouteDeps, caller: MemberRecord, raw: string, custom: boolean): Promise<Target> {
  const lookups = metricLookups(deps.store);
  const id = parseShortlinkId(raw);
  const link = id ? await lookups.link(caller, `${id.domain}/${id.hash}`) : null;
  if (!link || (custom && !link.custom))
    throw new NotFoundError('NOT_FOUND', custom ? 'No such custom short link.' : 'No such short link.');
  await lookups.access(caller, link.group_guid);
  return {
    organizationId: link.organization_id,
    scope: { kind: 'link', key: link._id },
    began: link.created_at.getTime(),
  };
}

/** A metric of a short link's clicks, under `/v4/shortlinks` and its alias `/v4/bitlinks`. */
export function shortlinkMetric(spec: MetricSpec): LinksRoute {
  return (app, deps) => {
    for (const base of ['/v4/shortlinks', '/v4/bitlinks'])
      app.get(`${base}/:domain/:hash${spec.suffix}`, { schema: metricSchema(spec, LinkParams) }, async (request) => {
        const { domain, hash } = request.params;
        return answerMetric(
          spec,
          await linkTarget(deps, request.caller!, `${domain}/${hash}`, false),
          request.query,
          deps,
        );
      });
  };
}
