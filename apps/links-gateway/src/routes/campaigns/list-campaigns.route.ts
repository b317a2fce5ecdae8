import { Type, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { campaignJson, groupsToList } from './campaign.js';
import { Campaign } from './schemas.js';

export function listCampaignsRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/campaigns',
    {
      schema: {
        summary: "The campaigns of the user's groups",
        tags: ['campaigns'],
        security,
        querystring: Type.Object({
          group_guid: Type.Optional(Type.String({ maxLength: 100, description: 'Only this group (none: all).' })),
        }),
        response: { 200: Type.Object({ campaigns: Type.Array(Campaign) }), ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const groups = await groupsToList(deps, caller, request.query.group_guid);
      return {
        campaigns: (await deps.store.campaignsOf(caller.environment_id, groups)).map((c) => campaignJson(deps, c)),
      };
    },
  );
}
