import { randomUUID } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import type { HttpApp } from '@platform/http';
import { webhookJson } from '@platform/links';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { Webhook, WebhookParams } from './schemas.js';
import { viewOf, webhookFor } from './webhook.js';

export function verifyWebhookRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/webhooks/:webhook_guid/verify',
    {
      schema: {
        summary: 'Send a ping event to the webhook',
        description: 'Delivered like any event, signed; a body, if any, is ignored.',
        tags: ['webhooks'],
        security,
        params: WebhookParams,
        response: { 200: Webhook, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const webhook = await webhookFor(deps, caller, request.params.webhook_guid);
      await deps.commands.send(MessageTypeNames.VerifyWebhook, webhook._id, {
        organization_id: caller.environment_id,
        webhook_guid: webhook._id,
        ping_id: randomUUID(),
      });
      return webhookJson((await deps.store.getWebhook(caller.environment_id, webhook._id))!, viewOf(deps));
    },
  );
}
