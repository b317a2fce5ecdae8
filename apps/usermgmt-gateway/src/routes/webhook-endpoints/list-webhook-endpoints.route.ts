import { Type, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { ListMetadata, PaginationQuery, WebhookEndpoint, errorResponses, security } from '../../schemas.js';

export function listWebhookEndpointsRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/webhook_endpoints',
    {
      schema: {
        summary: 'List webhook endpoints',
        tags: ['webhooks'],
        security,
        querystring: PaginationQuery,
        response: {
          200: Type.Object({ data: Type.Array(WebhookEndpoint), list_metadata: ListMetadata }),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      deps.store.webhookEndpoints.list(request.environmentId, request.query, (sealed) => deps.sealer.open(sealed)),
  );
}
