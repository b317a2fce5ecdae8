import type { LinksRoute } from '../../deps.js';
import { getGroupFeatureUsageRoute } from './get-group-feature-usage.route.js';
import { getGroupHistoricalUsageRoute } from './get-group-historical-usage.route.js';
import { getGroupPreferencesRoute } from './get-group-preferences.route.js';
import { getGroupRoute } from './get-group.route.js';
import { listGroupTagsRoute } from './list-group-tags.route.js';
import { listGroupsRoute } from './list-groups.route.js';
import { updateGroupPreferencesRoute } from './update-group-preferences.route.js';
import { updateGroupRoute } from './update-group.route.js';

/** Groups: get, list, edit, tags, preferences, feature and historical usage. */
export const groupRoutes: LinksRoute[] = [
  listGroupsRoute,
  getGroupRoute,
  updateGroupRoute,
  listGroupTagsRoute,
  getGroupPreferencesRoute,
  updateGroupPreferencesRoute,
  getGroupFeatureUsageRoute,
  getGroupHistoricalUsageRoute,
];
