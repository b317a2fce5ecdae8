import type { LinksRoute } from '../../deps.js';
import { accountRoutes as legacy } from '../account.routes.js';

/** The token's user, its platform limits and the organization's branded domains. */
export const userRoutes: LinksRoute[] = [legacy];
