import type { HttpApp } from '@platform/http';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { groupJson } from './group.js';
import { Group, GroupParams } from './schemas.js';

export function getGroupRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/groups/:group_guid',
    {
      schema: {
        summary: 'A group',
        tags: ['groups'],
        security,
        params: GroupParams,
        response: { 200: Group, ...errorResponses },
      },
    },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      return groupJson(deps, group, request.caller!._id);
    },
  );
}
