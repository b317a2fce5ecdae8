import { Type, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { groupJson } from './group.js';
import { Group } from './schemas.js';

export function listGroupsRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/groups',
    {
      schema: {
        summary: "The user's groups",
        tags: ['groups'],
        security,
        querystring: Type.Object({ organization_guid: Type.Optional(Type.String({ maxLength: 100 })) }),
        response: { 200: Type.Object({ groups: Type.Array(Group) }), ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const wanted = request.query.organization_guid;
      const groups = (await deps.store.groupsOfUser(caller.environment_id, caller._id)).filter(
        (g) => !wanted || g.organization_id === wanted,
      );
      return { groups: groups.map((g) => groupJson(deps, g, caller._id)) };
    },
  );
}
