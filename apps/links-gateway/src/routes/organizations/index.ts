import type { LinksRoute } from '../../deps.js';
import { getOrganizationRoute } from './get-organization.route.js';
import { listOrganizationsRoute } from './list-organizations.route.js';

/** The organizations a token's user belongs to: one, the token's. */
export const organizationRoutes: LinksRoute[] = [listOrganizationsRoute, getOrganizationRoute];
