import { MessageTypeNames } from '@platform/contracts';
import { type HttpApp, IdempotencyKeyHeader, Type } from '@platform/http';
import { generateId } from '@platform/secrets';
import type { GatewayDeps } from '../../deps.js';
import { idempotentIds } from '../../idempotency.js';
import { IdParams, errorResponses, security } from '../../schemas.js';

export function deleteUserRoute(app: HttpApp, deps: GatewayDeps) {
  app.delete(
    '/user_management/users/:id',
    {
      schema: {
        summary: 'Delete a user',
        description:
          'Permanently deletes the user; its e-mail address and external id can be used again at once. Emits user.deleted.',
        tags: ['user management'],
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
        MessageTypeNames.DeleteUser,
        request.params.id,
        { environment_id: request.environmentId, user_id: request.params.id },
        { commandId: ids.commandId },
      );
      return reply.code(204).send(null);
    },
  );
}
