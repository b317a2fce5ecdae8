import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import { normaliseOrigin } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { CorsOrigin, errorResponses, security } from '../../schemas.js';

export function createCorsOriginRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/user_management/cors_origins',
    {
      schema: {
        summary: 'Create a CORS origin for the environment',
        tags: ['user management'],
        security,
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          { origin: Type.String({ minLength: 1, maxLength: 2048, format: 'uri' }) },
          { additionalProperties: false },
        ),
        response: { 201: CorsOrigin, ...errorResponses },
      },
    },
    async (request, reply) => {
      const origin = normaliseOrigin(request.body.origin);
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: generateId('cors_origin'),
      }));
      const result = await deps.commands.send(
        MessageTypeNames.CreateCorsOrigin,
        request.environmentId,
        { environment_id: request.environmentId, cors_origin_id: ids.resourceId, origin },
        { commandId: ids.commandId },
      );
      return reply.code(201).send(result);
    },
  );
}
