import type { HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { organizationJson } from './organization.js';
import { Organization, OrganizationParams } from './schemas.js';

export function getOrganizationRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/organizations/:organization_guid',
    {
      schema: {
        summary: 'An organization of the user (the one every group and webhook names in references.organization)',
        tags: ['organizations'],
        security,
        params: OrganizationParams,
        response: { 200: Organization, ...errorResponses },
      },
    },
    async (request) => organizationJson(deps, request.caller!, request.params.organization_guid),
  );
}
