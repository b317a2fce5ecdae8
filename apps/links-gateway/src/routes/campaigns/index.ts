import type { LinksRoute } from '../../deps.js';
import { createCampaignRoute } from './create-campaign.route.js';
import { getCampaignRoute } from './get-campaign.route.js';
import { listCampaignsRoute } from './list-campaigns.route.js';
import { updateCampaignRoute } from './update-campaign.route.js';

/** Campaigns: marketing groupings of a group's links, made of channels. */
export const campaignRoutes: LinksRoute[] = [
  listCampaignsRoute,
  createCampaignRoute,
  getCampaignRoute,
  updateCampaignRoute,
];
