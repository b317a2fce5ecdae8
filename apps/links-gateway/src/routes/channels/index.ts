import type { LinksRoute } from '../../deps.js';

/** Channels. */
export const channelRoutes: LinksRoute[] = [];
