import { NotFoundError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import type { AttemptDoc } from '@platform/webhooks';
import type { GatewayDeps } from '../../deps.js';
import { DeliveryAttempt, IdParams, ListMetadata, PaginationQuery, errorResponses, security } from '../../schemas.js';

function present(attempt: AttemptDoc) {
  return {
    object: 'webhook_delivery_attempt' as const,
    id: attempt._id,
    delivery_id: attempt.delivery_id,
    event_id: attempt.event_id,
    event: attempt.event_type,
    attempt: attempt.attempt,
    status_code: attempt.status,
    latency_ms: attempt.latency_ms,
    error: attempt.error,
    response_body: attempt.response_body,
    created_at: attempt.started_at.toISOString(),
  };
}

export function listWebhookDeliveriesRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/webhook_endpoints/:id/deliveries',
    {
      schema: {
        summary: 'The delivery log of a webhook endpoint',
        description: 'Every attempt: time, HTTP status, latency and the first kilobyte of the response, newest first.',
        tags: ['webhooks'],
        security,
        params: IdParams,
        querystring: PaginationQuery,
        response: {
          200: Type.Object({ data: Type.Array(DeliveryAttempt), list_metadata: ListMetadata }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const endpoint = await deps.store.webhookEndpoints.get(request.environmentId, request.params.id);
      if (!endpoint) throw new NotFoundError('entity_not_found', `Webhook endpoint not found: '${request.params.id}'.`);
      return deps.deliveries.listAttempts(
        { producer: 'usermgmt', tenantId: request.environmentId, targetId: endpoint._id },
        request.query,
        present,
      );
    },
  );
}
