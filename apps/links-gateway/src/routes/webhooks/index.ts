import type { LinksRoute } from '../../deps.js';
import { webhookRoutes as legacy } from '../webhooks.routes.js';

/** Webhooks. */
export const webhookRoutes: LinksRoute[] = [legacy];
