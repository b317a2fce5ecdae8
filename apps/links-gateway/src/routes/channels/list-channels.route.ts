import { Type, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { campaignFor, groupsToList } from '../campaigns/campaign.js';
import { channelJson } from './channel.js';
import { Channel } from './schemas.js';

export function listChannelsRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/channels',
    {
      schema: {
        summary: "The channels of the user's groups or of a campaign",
        tags: ['channels'],
        security,
        querystring: Type.Object({
          group_guid: Type.Optional(Type.String({ maxLength: 100, description: 'Only this group (none: all).' })),
          campaign_guid: Type.Optional(
            Type.String({ maxLength: 100, description: 'Only the channels of this campaign or holding its links.' }),
          ),
        }),
        response: { 200: Type.Object({ channels: Type.Array(Channel) }), ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      let channels = await deps.store.channelsOf(
        caller.environment_id,
        await groupsToList(deps, caller, request.query.group_guid),
      );
      if (request.query.campaign_guid) {
        const { campaign } = await campaignFor(deps, caller, request.query.campaign_guid);
        channels = channels.filter(
          (c) => campaign.channel_guids.includes(c._id) || c.shortlinks.some((s) => s.campaign_guid === campaign._id),
        );
      }
      return { channels: channels.map((c) => channelJson(deps, c)) };
    },
  );
}
