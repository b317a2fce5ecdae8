import { bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { assertMayOrganize } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { invalid } from '../../input.js';
import { errorResponses, security } from '../../schemas.js';
import { campaignFor, saveCampaign } from './campaign.js';
import { Campaign, CampaignParams, UpdateCampaignBody } from './schemas.js';

const checkBody = bodyChecker(UpdateCampaignBody);

export function updateCampaignRoute(app: HttpApp, deps: RouteDeps) {
  app.patch(
    '/v4/campaigns/:campaign_guid',
    {
      // Who may change the campaign is decided before the body is judged: a stranger learns nothing from a 400.
      validatorCompiler: deferredBodyValidation(),
      schema: {
        summary: 'Edit a campaign (admins and editors)',
        tags: ['campaigns'],
        security,
        params: CampaignParams,
        body: UpdateCampaignBody,
        response: { 200: Campaign, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const { access } = await campaignFor(deps, caller, request.params.campaign_guid);
      assertMayOrganize(access);
      checkBody(request.body);
      const moved = request.body.group_guid;
      if (moved && moved !== access.group._id)
        throw invalid('group_guid', 'A campaign stays in the group it was made in.');
      return saveCampaign(deps, caller, access, request.params.campaign_guid, false, request.body);
    },
  );
}
