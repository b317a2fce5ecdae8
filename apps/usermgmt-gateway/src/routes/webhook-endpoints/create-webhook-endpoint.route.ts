import { MessageTypeNames } from '@platform/contracts';
import { parsePublicUrl } from '@platform/egress';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import { validateEventTypes } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { OrderedInput, RateLimitInput, WebhookEndpoint, errorResponses, security } from '../../schemas.js';

export function createWebhookEndpointRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/webhook_endpoints',
    {
      schema: {
        summary: 'Create a webhook endpoint',
        description:
          'The response carries the signing secret; it is shown this once. `rate_limit` and `ordered` are extensions beyond WorkOS: clients that send neither get no limit and no ordering.',
        tags: ['webhooks'],
        security,
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          {
            endpoint_url: Type.String({ minLength: 1, maxLength: 2048, format: 'uri' }),
            events: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50 }),
            rate_limit: Type.Optional(RateLimitInput),
            ordered: Type.Optional(OrderedInput({ default: false })),
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
        {
          environment_id: request.environmentId,
          webhook_endpoint_id: ids.resourceId,
          endpoint_url: url,
          events,
          rate_limit: request.body.rate_limit ?? null,
          ordered: request.body.ordered ?? false,
        },
        { commandId: ids.commandId },
      );
      return reply.code(201).send(result);
    },
  );
}
