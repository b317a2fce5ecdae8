import type { LinksRoute } from '../../deps.js';
import { getGroupChartRoute } from './get-group-chart.route.js';
import { getGroupsPageRoute } from './get-groups-page.route.js';
import { getLoginPageRoute } from './get-login-page.route.js';
import { getShortlinkChartRoute } from './get-shortlink-chart.route.js';
import { submitLoginRoute } from './submit-login.route.js';

/** The analytics pages (HTML, signed in by a form and a cookie): outside the API's token hook. */
export const chartRoutes: LinksRoute[] = [
  getLoginPageRoute,
  submitLoginRoute,
  getGroupsPageRoute,
  getGroupChartRoute,
  getShortlinkChartRoute,
];
