import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
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
        headers: IdempotencyKeyHeader,
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: request.params.id,
      }));
      await deps.commands.send(
        MessageTypeNames.DeleteWebhookEndpoint,
        request.environmentId,
        { environment_id: request.environmentId, webhook_endpoint_id: request.params.id },
        { commandId: ids.commandId },
      );
      return reply.code(204).send(null);
    },
  );
}
