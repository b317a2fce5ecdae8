import { NotFoundError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { presentUser } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { ExternalId, User, errorResponses, security } from '../../schemas.js';

export function getUserByExternalIdRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/user_management/users/external_id/:external_id',
    {
      schema: {
        summary: 'Get a user by the external id your system gave it',
        tags: ['user management'],
        security,
        params: Type.Object({ external_id: ExternalId }),
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => {
      const user = await deps.store.users.getByExternalId(request.environmentId, request.params.external_id);
      if (!user)
        throw new NotFoundError('entity_not_found', `User not found: external id '${request.params.external_id}'.`);
      return presentUser(user);
    },
  );
}
