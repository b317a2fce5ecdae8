import { NotFoundError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { presentUser } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { IdParams, User, errorResponses, security } from '../../schemas.js';

export function getUserRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/user_management/users/:id',
    {
      schema: {
        summary: 'Get a user',
        tags: ['user management'],
        security,
        params: IdParams,
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => {
      const user = await deps.store.users.get(request.environmentId, request.params.id);
      if (!user) throw new NotFoundError('entity_not_found', `User not found: '${request.params.id}'.`);
      return presentUser(user);
    },
  );
}
