import { Type, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { organizationJson } from './organization.js';
import { Organization } from './schemas.js';

export function listOrganizationsRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/organizations',
    {
      schema: {
        summary: "The user's organizations",
        tags: ['organizations'],
        security,
        response: { 200: Type.Object({ organizations: Type.Array(Organization) }), ...errorResponses },
      },
    },
    async (request) => ({ organizations: [await organizationJson(deps, request.caller!)] }),
  );
}
