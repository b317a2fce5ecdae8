import type { LinksRoute } from '../../deps.js';
import { groupRoutes as legacy } from '../groups.routes.js';

/** Groups: get, list, edit, tags, preferences, feature and historical usage. */
export const groupRoutes: LinksRoute[] = [legacy];
