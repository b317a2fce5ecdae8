import type { LinksRoute } from '../../deps.js';
import { getClicksByDestinationRoute } from './get-clicks-by-destination.route.js';
import { getShortlinkClicksSummaryRoute } from './get-shortlink-clicks-summary.route.js';
import { getShortlinkClicksRoute } from './get-shortlink-clicks.route.js';
import { getShortlinkCitiesRoute } from './get-shortlink-cities.route.js';
import { getShortlinkCountriesRoute } from './get-shortlink-countries.route.js';
import { getShortlinkDevicesRoute } from './get-shortlink-devices.route.js';
import { getShortlinkEngagementsSummaryRoute } from './get-shortlink-engagements-summary.route.js';
import { getShortlinkEngagementsRoute } from './get-shortlink-engagements.route.js';
import { getShortlinkReferrerNameRoute } from './get-shortlink-referrer-name.route.js';
import { getShortlinkReferrersByDomainsRoute } from './get-shortlink-referrers-by-domains.route.js';
import { getShortlinkReferrersRoute } from './get-shortlink-referrers.route.js';
import { getShortlinkReferringDomainsRoute } from './get-shortlink-referring-domains.route.js';

/** Click metrics of a short link (each under /v4/shortlinks and /v4/bitlinks), and a custom link's destinations. */
export const shortlinkMetricRoutes: LinksRoute[] = [
  getShortlinkClicksRoute,
  getShortlinkClicksSummaryRoute,
  getShortlinkEngagementsRoute,
  getShortlinkEngagementsSummaryRoute,
  getShortlinkCountriesRoute,
  getShortlinkCitiesRoute,
  getShortlinkDevicesRoute,
  getShortlinkReferrersRoute,
  getShortlinkReferrerNameRoute,
  getShortlinkReferringDomainsRoute,
  getShortlinkReferrersByDomainsRoute,
  getClicksByDestinationRoute,
];
