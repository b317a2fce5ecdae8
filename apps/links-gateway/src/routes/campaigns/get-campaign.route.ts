import type { HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { campaignFor, campaignJson } from './campaign.js';
import { Campaign, CampaignParams } from './schemas.js';

export function getCampaignRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/campaigns/:campaign_guid',
    {
      schema: {
        summary: 'A campaign',
        tags: ['campaigns'],
        security,
        params: CampaignParams,
        response: { 200: Campaign, ...errorResponses },
      },
    },
    async (request) =>
      campaignJson(deps, (await campaignFor(deps, request.caller!, request.params.campaign_guid)).campaign),
  );
}
