import { MessageTypeNames } from '@platform/contracts';
import { parsePublicUrl } from '@platform/egress';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import { validateEventTypes } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { WebhookEndpoint, errorResponses, security } from '../../schemas.js';

export function createWebhookEndpointRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/webhook_endpoints',
    {
      schema: {
        summary: 'Create a webhook endpoint',
        description: 'The response carries the signing secret; it is shown this once.',
        tags: ['webhooks'],
        security,
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          {
            endpoint_url: Type.String({ minLength: 1, maxLength: 2048, format: 'uri' }),
            events: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50 }),
          },
          { additionalProperties: false },
        ),
        response: { 201: WebhookEndpoint, ...errorResponses },
      },
    },
    async (request, reply) => {
      const url = parsePublicUrl(request.body.endpoint_url, 'endpoint_url').toString();
      const events = validateEventTypes(request.body.events);
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: generateId('we'),
      }));
      const result = await deps.commands.send(
        MessageTypeNames.CreateWebhookEndpoint,
        request.environmentId,
        { environment_id: request.environmentId, webhook_endpoint_id: ids.resourceId, endpoint_url: url, events },
        { commandId: ids.commandId },
      );
      return reply.code(201).send(result);
    },
  );
}
