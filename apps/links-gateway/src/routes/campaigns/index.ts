import type { LinksRoute } from '../../deps.js';
import { campaignRoutes as legacy } from '../campaigns.routes.js';

/** Campaigns (and, until they move to routes/channels, channels). */
export const campaignRoutes: LinksRoute[] = [legacy];
