import { MessageTypeNames } from '@platform/contracts';
import { parsePublicUrl } from '@platform/egress';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import { validateEventTypes } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { IdParams, OrderedInput, RateLimitInput, WebhookEndpoint, errorResponses, security } from '../../schemas.js';

export function updateWebhookEndpointRoute(app: HttpApp, deps: GatewayDeps) {
  app.patch(
    '/webhook_endpoints/:id',
    {
      schema: {
        summary: 'Update a webhook endpoint',
        description:
          'Changes the members given and keeps the rest. `rate_limit` (null removes the limit) and `ordered` are extensions beyond WorkOS.',
        tags: ['webhooks'],
        security,
        headers: IdempotencyKeyHeader,
        params: IdParams,
        body: Type.Object(
          {
            endpoint_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, format: 'uri' })),
            status: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
            events: Type.Optional(
              Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 50 }),
            ),
            rate_limit: Type.Optional(RateLimitInput),
            ordered: Type.Optional(OrderedInput()),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: WebhookEndpoint, ...errorResponses },
      },
    },
    async (request) => {
      const { endpoint_url, status, events, rate_limit, ordered } = request.body;
      const url = endpoint_url === undefined ? null : parsePublicUrl(endpoint_url, 'endpoint_url').toString();
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: request.params.id,
      }));
      return await deps.commands.send(
        MessageTypeNames.UpdateWebhookEndpoint,
        request.environmentId,
        {
          environment_id: request.environmentId,
          webhook_endpoint_id: request.params.id,
          endpoint_url: url,
          events: events === undefined ? null : validateEventTypes(events),
          status: status ?? null,
          rate_limit: rate_limit ?? null,
          clear_rate_limit: rate_limit === null,
          ordered: ordered ?? null,
        },
        { commandId: ids.commandId },
      );
    },
  );
}
