import type { HttpApp } from '@platform/http';
import { webhookJson } from '@platform/links';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { Webhook, WebhookParams } from './schemas.js';
import { viewOf, webhookFor } from './webhook.js';

export function getWebhookRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/webhooks/:webhook_guid',
    {
      schema: {
        summary: 'A webhook',
        tags: ['webhooks'],
        security,
        params: WebhookParams,
        response: { 200: Webhook, ...errorResponses },
      },
    },
    async (request) => webhookJson(await webhookFor(deps, request.caller!, request.params.webhook_guid), viewOf(deps)),
  );
}
