import { Type, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

export function listBsdsRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/bsds',
    {
      schema: {
        summary: "The organization's branded short domains",
        tags: ['bsds'],
        security,
        response: { 200: Type.Object({ bsds: Type.Array(Type.String()) }), ...errorResponses },
      },
    },
    async (request) => ({
      bsds: (await deps.store.domainsOfOrganization(request.caller!.environment_id)).map((d) => d._id),
    }),
  );
}
