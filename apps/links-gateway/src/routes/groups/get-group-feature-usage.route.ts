import { Type, type HttpApp } from '@platform/http';
import { nextUnit, unitStart } from '@platform/links';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { limitsNamed } from './group.js';
import { GroupParams, LimitNameQuery } from './schemas.js';

const FeatureUsage = Type.Object({
  group_guid: Type.String(),
  limit_usage: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), count: Type.Integer() })),
});

export function getGroupFeatureUsageRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/groups/:group_guid/feature_usage',
    {
      schema: {
        summary: "A group's use of each limited feature this month",
        tags: ['groups'],
        security,
        params: GroupParams,
        querystring: Type.Object({ name: Type.Optional(LimitNameQuery) }),
        response: { 200: FeatureUsage, ...errorResponses },
      },
    },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      const limits = limitsNamed(request.query.name);
      const from = unitStart(new Date(), 'month');
      const to = nextUnit(from, 'month');
      const counts = await Promise.all(
        limits.map((l) => deps.store.countLinksCreated(group.organization_id, group._id, from, to, l.customOnly)),
      );
      return {
        group_guid: group._id,
        limit_usage: limits.map((l, i) => ({ name: l.name, description: l.description, count: counts[i]! })),
      };
    },
  );
}
