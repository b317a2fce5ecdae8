import type { LinksRoute } from '../../deps.js';
import { chartRoutes as legacy } from '../charts.routes.js';

/** The analytics pages (HTML, signed in by a form and a cookie): outside the API's token hook. */
export const chartRoutes: LinksRoute[] = [legacy];
