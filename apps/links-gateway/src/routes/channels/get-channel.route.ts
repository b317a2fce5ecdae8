import type { HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { channelFor, channelJson } from './channel.js';
import { Channel, ChannelParams } from './schemas.js';

export function getChannelRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/channels/:channel_guid',
    {
      schema: {
        summary: 'A channel',
        tags: ['channels'],
        security,
        params: ChannelParams,
        response: { 200: Channel, ...errorResponses },
      },
    },
    async (request) =>
      channelJson(deps, (await channelFor(deps, request.caller!, request.params.channel_guid)).channel),
  );
}
