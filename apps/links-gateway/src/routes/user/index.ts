import type { LinksRoute } from '../../deps.js';
import { getPlatformLimitsRoute } from './get-platform-limits.route.js';
import { getUserRoute } from './get-user.route.js';
import { listBsdsRoute } from './list-bsds.route.js';
import { updateUserRoute } from './update-user.route.js';

/** The token's user, its platform limits and the organization's branded domains. */
export const userRoutes: LinksRoute[] = [getUserRoute, updateUserRoute, getPlatformLimitsRoute, listBsdsRoute];
