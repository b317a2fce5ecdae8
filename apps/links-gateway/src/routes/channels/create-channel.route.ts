import { randomUUID } from 'node:crypto';
import type { HttpApp } from '@platform/http';
import { assertMayOrganize, requestedGroup } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, idempotentCreate, security } from '../../schemas.js';
import { newGuid } from '../campaigns/campaign.js';
import { saveChannel } from './channel.js';
import { Channel, CreateChannelBody } from './schemas.js';

export function createChannelRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/channels',
    {
      schema: {
        summary: 'Create a channel in a group, with its short links (admins and editors)',
        tags: ['channels'],
        security,
        headers: idempotentCreate.headers,
        body: CreateChannelBody,
        response: { 200: Channel, ...errorResponses, ...idempotentCreate.responses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const access = await requestedGroup(deps, caller, request.body.group_guid);
      assertMayOrganize(access);
      const { guid, commandId } = await deps.idempotency.ids(request, () => ({
        guid: newGuid('Ch'),
        commandId: randomUUID(),
      }));
      return saveChannel(deps, caller, access, guid, true, request.body, { commandId });
    },
  );
}
