import type { LinksRoute } from '../../deps.js';
import { shortlinkRoutes as legacy } from '../shortlinks.routes.js';

/** Short links: shorten, create, get, edit, delete, expand, and a group's list and bulk edit. */
export const shortlinkRoutes: LinksRoute[] = [legacy];
