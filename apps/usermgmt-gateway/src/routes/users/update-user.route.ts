import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId, hashPassword } from '@platform/secrets';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { ExternalId, IdParams, User, UserMetadataChanges, errorResponses, security } from '../../schemas.js';

export function updateUserRoute(app: HttpApp, deps: GatewayDeps) {
  app.put(
    '/user_management/users/:id',
    {
      schema: {
        summary: 'Update a user',
        description:
          'Changes the members given and keeps the rest. `metadata` is merged into the stored pairs; a key set to null is removed. Emits user.updated.',
        tags: ['user management'],
        security,
        headers: IdempotencyKeyHeader,
        params: IdParams,
        body: Type.Object(
          {
            email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
            password: Type.Optional(Type.String({ minLength: 8, maxLength: 256 })),
            first_name: Type.Optional(Type.String({ maxLength: 256 })),
            last_name: Type.Optional(Type.String({ maxLength: 256 })),
            email_verified: Type.Optional(Type.Boolean()),
            external_id: Type.Optional(ExternalId),
            metadata: Type.Optional(UserMetadataChanges),
          },
          { additionalProperties: false },
        ),
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body;
      const ids = await idempotentIds(deps.redis, request, () => ({
        commandId: generateId('cmd'),
        resourceId: request.params.id,
      }));
      return await deps.commands.send(
        MessageTypeNames.UpdateUser,
        request.params.id,
        {
          environment_id: request.environmentId,
          user_id: request.params.id,
          email: body.email ?? null,
          first_name: body.first_name ?? null,
          last_name: body.last_name ?? null,
          email_verified: body.email_verified ?? null,
          external_id: body.external_id ?? null,
          metadata: body.metadata ?? null,
          password_hash: body.password === undefined ? null : await hashPassword(body.password),
        },
        { commandId: ids.commandId },
      );
    },
  );
}
