import type { LinksRoute } from '../../deps.js';
import { createWebhookRoute } from './create-webhook.route.js';
import { deleteWebhookRoute } from './delete-webhook.route.js';
import { getWebhookRoute } from './get-webhook.route.js';
import { listWebhooksRoute } from './list-webhooks.route.js';
import { updateWebhookRoute } from './update-webhook.route.js';
import { verifyWebhookRoute } from './verify-webhook.route.js';

/** Webhooks. */
export const webhookRoutes: LinksRoute[] = [
  listWebhooksRoute,
  createWebhookRoute,
  getWebhookRoute,
  updateWebhookRoute,
  deleteWebhookRoute,
  verifyWebhookRoute,
];
