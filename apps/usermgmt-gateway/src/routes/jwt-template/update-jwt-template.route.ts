import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import { JWT_TEMPLATE_MAX_LENGTH, validateJwtTemplate } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { JwtTemplate, errorResponses, security } from '../../schemas.js';

export function updateJwtTemplateRoute(app: HttpApp, deps: GatewayDeps) {
  app.put(
    '/user_management/jwt_template',
    {
      schema: {
        summary: 'Replace the JWT template of the environment',
        description:
          'The content must be a JSON object once {{placeholders}} are filled in; only known placeholders are accepted.',
        tags: ['user management'],
        security,
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          { content: Type.String({ minLength: 2, maxLength: JWT_TEMPLATE_MAX_LENGTH }) },
          { additionalProperties: false },
        ),
        response: { 200: JwtTemplate, ...errorResponses },
      },
    },
    async (request) => {
      validateJwtTemplate(request.body.content);
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: request.environmentId,
      }));
      return await deps.commands.send(
        MessageTypeNames.UpdateJwtTemplate,
        request.environmentId,
        { environment_id: request.environmentId, content: request.body.content },
        { commandId: ids.commandId },
      );
    },
  );
}
