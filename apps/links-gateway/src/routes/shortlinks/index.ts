import type { LinksRoute } from '../../deps.js';
import { bulkEditShortlinksRoute } from './bulk-edit-shortlinks.route.js';
import { createShortlinkRoute } from './create-shortlink.route.js';
import { deleteShortlinkRoute } from './delete-shortlink.route.js';
import { expandShortlinkRoute } from './expand-shortlink.route.js';
import { getShortlinkRoute } from './get-shortlink.route.js';
import { listGroupShortlinksRoute } from './list-group-shortlinks.route.js';
import { shortenLinkRoute } from './shorten-link.route.js';
import { updateShortlinkRoute } from './update-shortlink.route.js';

/** Short links: shorten, create, get, edit, delete, expand, and a group's list and bulk edit. */
export const shortlinkRoutes: LinksRoute[] = [
  shortenLinkRoute,
  createShortlinkRoute,
  getShortlinkRoute,
  updateShortlinkRoute,
  deleteShortlinkRoute,
  expandShortlinkRoute,
  listGroupShortlinksRoute,
  bulkEditShortlinksRoute,
];
