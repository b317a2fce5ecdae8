import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId, hashPassword } from '@platform/secrets';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { ExternalId, User, UserMetadata, errorResponses, security } from '../../schemas.js';

export function createUserRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/user_management/users',
    {
      schema: {
        summary: 'Create a user',
        description: 'Emits the user.created event to subscribed webhook endpoints.',
        tags: ['user management'],
        security,
        headers: IdempotencyKeyHeader,
        body: Type.Object(
          {
            email: Type.String({ format: 'email', maxLength: 320 }),
            password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
            first_name: Type.Optional(Type.String({ maxLength: 256 })),
            last_name: Type.Optional(Type.String({ maxLength: 256 })),
            email_verified: Type.Optional(Type.Boolean()),
            external_id: Type.Optional(ExternalId),
            metadata: Type.Optional(UserMetadata),
          },
          { additionalProperties: false },
        ),
        response: { 201: User, ...errorResponses },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: generateId('user'),
      }));
      const result = await deps.commands.send(
        MessageTypeNames.CreateUser,
        ids.resourceId,
        {
          environment_id: request.environmentId,
          user_id: ids.resourceId,
          email: body.email,
          first_name: body.first_name ?? null,
          last_name: body.last_name ?? null,
          email_verified: body.email_verified ?? false,
          external_id: body.external_id ?? null,
          metadata: body.metadata ?? {},
          password_hash: body.password === undefined ? null : await hashPassword(body.password),
        },
        { commandId: ids.commandId },
      );
      return reply.code(201).send(result);
    },
  );
}
