import { MessageTypeNames } from '@platform/contracts';
import { NotFoundError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { WEBHOOK_TOPICS } from '@platform/webhooks';
import type { GatewayDeps } from '../../deps.js';
import { IdParams, errorResponses, security } from '../../schemas.js';

const Accepted = Type.Object({
  object: Type.Literal('webhook_redelivery'),
  webhook_endpoint_id: Type.String(),
  delivery_id: Type.Union([Type.String(), Type.Null()]),
  since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** Manual redelivery is asynchronous (202): the attempts show up in the delivery log. */
export function redeliverWebhooksRoutes(app: HttpApp, deps: GatewayDeps) {
  async function endpointOf(environmentId: string, id: string) {
    const endpoint = await deps.store.webhookEndpoints.get(environmentId, id);
    if (!endpoint) throw new NotFoundError('entity_not_found', `Webhook endpoint not found: '${id}'.`);
    return endpoint;
  }

  function publish(environmentId: string, endpointId: string, deliveryId: string | null, since: Date | null) {
    return deps.publisher.publish({
      topic: WEBHOOK_TOPICS.deliveries,
      key: endpointId,
      type: MessageTypeNames.RedeliverDeliveries,
      value: {
        producer: 'usermgmt',
        tenant_id: environmentId,
        target_id: endpointId,
        delivery_id: deliveryId,
        since: since?.getTime() ?? null,
        requested_at: Date.now(),
      },
    });
  }

  app.post(
    '/webhook_endpoints/:id/deliveries/:delivery_id/redeliver',
    {
      schema: {
        summary: 'Redeliver one message',
        tags: ['webhooks'],
        security,
        params: Type.Intersect([IdParams, Type.Object({ delivery_id: Type.String({ minLength: 1, maxLength: 64 }) })]),
        response: { 202: Accepted, ...errorResponses },
      },
    },
    async (request, reply) => {
      const endpoint = await endpointOf(request.environmentId, request.params.id);
      const scope = { producer: 'usermgmt', tenantId: request.environmentId, targetId: endpoint._id };
      if (!(await deps.deliveries.getForTarget(scope, request.params.delivery_id))) {
        throw new NotFoundError('entity_not_found', `Delivery not found: '${request.params.delivery_id}'.`);
      }
      await publish(request.environmentId, endpoint._id, request.params.delivery_id, null);
      return reply.code(202).send({
        object: 'webhook_redelivery',
        webhook_endpoint_id: endpoint._id,
        delivery_id: request.params.delivery_id,
        since: null,
      });
    },
  );

  app.post(
    '/webhook_endpoints/:id/redeliver',
    {
      schema: {
        summary: 'Redeliver every failed message since a time',
        tags: ['webhooks'],
        security,
        params: IdParams,
        body: Type.Object({ since: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
        response: { 202: Accepted, ...errorResponses },
      },
    },
    async (request, reply) => {
      const endpoint = await endpointOf(request.environmentId, request.params.id);
      const since = new Date(request.body.since);
      await publish(request.environmentId, endpoint._id, null, since);
      return reply.code(202).send({
        object: 'webhook_redelivery',
        webhook_endpoint_id: endpoint._id,
        delivery_id: null,
        since: since.toISOString(),
      });
    },
  );
}
