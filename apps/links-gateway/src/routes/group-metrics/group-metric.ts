import { Type } from '@platform/http';
import type { LinksRoute } from '../../deps.js';
import { metricLookups } from '../../metrics/lookups.js';
import { answerMetric, metricSchema, type MetricSpec } from '../../metrics/route.js';

const GroupParams = Type.Object({ group_guid: Type.String({ minLength: 1, maxLength: 100 }) });

/** A metric of every link of a group the caller is in (403 otherwise), under `/v4/groups/:group_guid`. */
export function groupMetric(spec: MetricSpec): LinksRoute {
  return (app, deps) => {
    app.get(`/v4/groups/:group_guid${spec.suffix}`, { schema: metricSchema(spec, GroupParams) }, async (request) => {
      const { group } = await metricLookups(deps.store).access(request.caller!, request.params.group_guid);
      const target = {
        organizationId: group.organization_id,
        scope: { kind: 'group' as const, key: group._id },
        began: group.created_at.getTime(),
      };
      return answerMetric(spec, target, request.query, deps);
    });
  };
}
