import type { HttpApp } from '@platform/http';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { preferencesJson } from './group.js';
import { GroupParams, GroupPreferences } from './schemas.js';

export function getGroupPreferencesRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/groups/:group_guid/preferences',
    {
      schema: {
        summary: "A group's preferences",
        tags: ['groups'],
        security,
        params: GroupParams,
        response: { 200: GroupPreferences, ...errorResponses },
      },
    },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      return preferencesJson(deps, group);
    },
  );
}
