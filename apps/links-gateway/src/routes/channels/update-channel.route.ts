import { bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { assertMayOrganize } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

import { channelFor, saveChannel } from './channel.js';
import { Channel, ChannelParams, UpdateChannelBody } from './schemas.js';

const checkBody = bodyChecker(UpdateChannelBody);

export function updateChannelRoute(app: HttpApp, deps: RouteDeps) {
  app.patch(
    '/v4/channels/:channel_guid',
    {
      // Who may change the channel is decided before the body is judged: a stranger learns nothing from a 400.
      validatorCompiler: deferredBodyValidation(),
      schema: {
        summary: 'Edit a channel and its short links (admins and editors)',
        tags: ['channels'],
        security,
        params: ChannelParams,
        body: UpdateChannelBody,
        response: { 200: Channel, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const { access } = await channelFor(deps, caller, request.params.channel_guid);
      assertMayOrganize(access);
      checkBody(request.body);
      return saveChannel(deps, caller, access, request.params.channel_guid, false, request.body);
    },
  );
}
