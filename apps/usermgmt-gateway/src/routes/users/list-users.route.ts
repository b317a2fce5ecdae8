import { Type, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { ListMetadata, PaginationQuery, User, errorResponses, security } from '../../schemas.js';

const ListUsersQuery = Type.Object(
  {
    ...PaginationQuery.properties,
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 320, description: 'Only the user with this address.' }),
    ),
    organization_id: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'Only members of this organization. This service keeps no organization memberships yet: none match.',
      }),
    ),
  },
  { additionalProperties: false },
);

export function listUsersRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/user_management/users',
    {
      schema: {
        summary: 'List users',
        description: 'Newest first by default; `before`/`after` are user ids, as `list_metadata` gives them.',
        tags: ['user management'],
        security,
        querystring: ListUsersQuery,
        response: { 200: Type.Object({ data: Type.Array(User), list_metadata: ListMetadata }), ...errorResponses },
      },
    },
    async (request) => {
      const { email, organization_id, ...page } = request.query;
      if (organization_id !== undefined) return { data: [], list_metadata: { before: null, after: null } };
      return deps.store.users.list(request.environmentId, page, { email });
    },
  );
}
