import { randomUUID } from 'node:crypto';
import type { HttpApp } from '@platform/http';
import { assertMayOrganize, requestedGroup } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, idempotentCreate, security } from '../../schemas.js';
import { newGuid, saveCampaign } from './campaign.js';
import { Campaign, CreateCampaignBody } from './schemas.js';

export function createCampaignRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/campaigns',
    {
      schema: {
        summary: 'Create a campaign in a group (admins and editors)',
        tags: ['campaigns'],
        security,
        headers: idempotentCreate.headers,
        body: CreateCampaignBody,
        response: { 200: Campaign, ...errorResponses, ...idempotentCreate.responses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const access = await requestedGroup(deps, caller, request.body.group_guid);
      assertMayOrganize(access);
      const { guid, commandId } = await deps.idempotency.ids(request, () => ({
        guid: newGuid('Cm'),
        commandId: randomUUID(),
      }));
      return saveCampaign(deps, caller, access, guid, true, request.body, { commandId });
    },
  );
}
