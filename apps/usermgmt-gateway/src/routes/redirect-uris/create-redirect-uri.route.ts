import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import { validateRedirectUri } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { RedirectUri, errorResponses, security } from '../../schemas.js';

export function createRedirectUriRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/user_management/redirect_uris',
    {
      schema: {
        summary: 'Create a redirect URI for the environment',
        tags: ['user management'],
        security,
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          { uri: Type.String({ minLength: 1, maxLength: 2048, format: 'uri' }) },
          { additionalProperties: false },
        ),
        response: { 201: RedirectUri, ...errorResponses },
      },
    },
    async (request, reply) => {
      const uri = validateRedirectUri(request.body.uri);
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: generateId('redirect_uri'),
      }));
      const result = await deps.commands.send(
        MessageTypeNames.CreateRedirectUri,
        request.environmentId,
        { environment_id: request.environmentId, redirect_uri_id: ids.resourceId, uri },
        { commandId: ids.commandId },
      );
      return reply.code(201).send(result);
    },
  );
}
