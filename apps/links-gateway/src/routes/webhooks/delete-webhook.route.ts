import { MessageTypeNames } from '@platform/contracts';
import { NoContent, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { WebhookParams } from './schemas.js';
import { webhookFor } from './webhook.js';

export function deleteWebhookRoute(app: HttpApp, deps: RouteDeps) {
  app.delete(
    '/v4/webhooks/:webhook_guid',
    {
      schema: {
        summary: 'Delete a webhook',
        description: 'No event reaches it afterwards.',
        tags: ['webhooks'],
        security,
        params: WebhookParams,
        response: { 204: NoContent('Deleted.'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const webhook = await webhookFor(deps, caller, request.params.webhook_guid);
      await deps.commands.send(MessageTypeNames.DeleteWebhook, webhook._id, {
        organization_id: caller.environment_id,
        webhook_guid: webhook._id,
      });
      return reply.code(204).send();
    },
  );
}
