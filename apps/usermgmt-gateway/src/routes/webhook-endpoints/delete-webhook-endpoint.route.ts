import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import { generateId } from '@platform/secrets';
import { USERMGMT_TOPICS } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { IdParams, errorResponses, security } from '../../schemas.js';

export function deleteWebhookEndpointRoute(app: HttpApp, deps: GatewayDeps) {
  app.delete(
    '/webhook_endpoints/:id',
    {
      schema: {
        summary: 'Delete a webhook endpoint',
        tags: ['webhooks'],
        security,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const ids = await idempotentIds(deps.redis, request, () => ({ commandId: generateId('cmd'), resourceId: request.params.id }));
      await deps.commands.send({
        topic: USERMGMT_TOPICS.commands,
        key: request.environmentId,
        type: MessageTypeNames.DeleteWebhookEndpoint,
        value: { environment_id: request.environmentId, webhook_endpoint_id: request.params.id },
        commandId: ids.commandId,
        timeoutMs: deps.commandTimeoutMs,
      });
      return reply.code(204).send(null);
    },
  );
}
