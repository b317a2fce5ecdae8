import type { LinksRoute } from '../../deps.js';
import { getGroupCitiesRoute } from './get-group-cities.route.js';
import { getGroupClicksRoute } from './get-group-clicks.route.js';
import { getGroupCountriesRoute } from './get-group-countries.route.js';
import { getGroupDevicesRoute } from './get-group-devices.route.js';
import { getGroupEngagementsOverTimeRoute } from './get-group-engagements-over-time.route.js';
import { getGroupLinksClicksCitiesRoute } from './get-group-links-clicks-cities.route.js';
import { getGroupLinksClicksCountriesRoute } from './get-group-links-clicks-countries.route.js';
import { getGroupLinksClicksDevicesRoute } from './get-group-links-clicks-devices.route.js';
import { getGroupLinksClicksOverTimeRoute } from './get-group-links-clicks-over-time.route.js';
import { getGroupLinksClicksReferrersRoute } from './get-group-links-clicks-referrers.route.js';
import { getGroupReferrersRoute } from './get-group-referrers.route.js';
import { getGroupReferringNetworksRoute } from './get-group-referring-networks.route.js';
import { getGroupShortenCountsRoute } from './get-group-shorten-counts.route.js';
import { getGroupTopLinksRoute } from './get-group-top-links.route.js';

/** Click and engagement metrics of a group (every link of it). */
export const groupMetricRoutes: LinksRoute[] = [
  getGroupCountriesRoute,
  getGroupCitiesRoute,
  getGroupDevicesRoute,
  getGroupReferringNetworksRoute,
  getGroupReferrersRoute,
  getGroupTopLinksRoute,
  getGroupEngagementsOverTimeRoute,
  getGroupClicksRoute,
  getGroupShortenCountsRoute,
  getGroupLinksClicksOverTimeRoute,
  getGroupLinksClicksDevicesRoute,
  getGroupLinksClicksReferrersRoute,
  getGroupLinksClicksCountriesRoute,
  getGroupLinksClicksCitiesRoute,
];
