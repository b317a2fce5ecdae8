import type { LinksRoute } from '../../deps.js';
import { metricsRoutes as legacy } from '../metrics.routes.js';

/** Click metrics of a short link (and, until they move, of groups and QR codes). */
export const shortlinkMetricRoutes: LinksRoute[] = [legacy];
