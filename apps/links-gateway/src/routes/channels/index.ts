import type { LinksRoute } from '../../deps.js';
import { createChannelRoute } from './create-channel.route.js';
import { getChannelRoute } from './get-channel.route.js';
import { listChannelsRoute } from './list-channels.route.js';
import { updateChannelRoute } from './update-channel.route.js';

/** Channels: where a campaign's links are shared (a newsletter, a social account). */
export const channelRoutes: LinksRoute[] = [listChannelsRoute, createChannelRoute, getChannelRoute, updateChannelRoute];
