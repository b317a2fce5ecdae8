import type { LinksRoute } from '../../deps.js';

/** Click and engagement metrics of a group. */
export const groupMetricRoutes: LinksRoute[] = [];
