import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { IdParams, WebhookEndpoint, errorResponses, security } from '../../schemas.js';

export function rotateWebhookEndpointSecretRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/webhook_endpoints/:id/rotate_secret',
    {
      schema: {
        summary: 'Rotate the signing secret of a webhook endpoint',
        description:
          'Returns the endpoint with its new secret (shown once). Until `previous_valid_for_seconds` (default 86400, 0 to revoke at once) have passed, deliveries carry a Standard Webhooks signature for each secret, so receivers can switch without dropping events.',
        tags: ['webhooks'],
        security,
        headers: IdempotencyKeyHeader,
        params: IdParams,
        body: Type.Optional(
          Type.Object(
            { previous_valid_for_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600 })) },
            { additionalProperties: false },
          ),
        ),
        response: { 200: WebhookEndpoint, ...errorResponses },
      },
    },
    async (request) => {
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: request.params.id,
      }));
      return await deps.commands.send(
        MessageTypeNames.RotateWebhookEndpointSecret,
        request.environmentId,
        {
          environment_id: request.environmentId,
          webhook_endpoint_id: request.params.id,
          previous_valid_for_seconds: request.body?.previous_valid_for_seconds ?? 86_400,
        },
        { commandId: ids.commandId },
      );
    },
  );
}
