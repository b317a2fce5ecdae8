import { randomBytes, randomUUID } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import { webhookJson } from '@platform/links';
import { mayManageWebhooks } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, idempotentCreate, security } from '../../schemas.js';
import { CreatedWebhook, Event, HttpUrl, Name, webhookInput } from './schemas.js';
import { checkGroup, forbidden, invalid, viewOf, webhookMembers } from './webhook.js';

const Body = Type.Object({
  organization_guid: Type.String({ minLength: 1, maxLength: 100 }),
  name: Name,
  event: Event,
  url: HttpUrl,
  ...webhookInput,
});

export function createWebhookRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/webhooks',
    {
      schema: {
        summary: 'Create a webhook',
        description:
          'For the whole organization (its owners) or one group (its admins too). The answer carries the signing secret, shown this once.',
        tags: ['webhooks'],
        security,
        headers: idempotentCreate.headers,
        body: Body,
        response: { 201: CreatedWebhook, ...errorResponses, ...idempotentCreate.responses },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const body = request.body;
      if (body.organization_guid !== caller.environment_id) throw forbidden();
      if (body.oauth_url && (!body.client_id || !body.client_secret))
        throw invalid('oauth_url', 'oauth_url needs client_id and client_secret');
      if (!body.oauth_url && (body.client_id || body.client_secret))
        throw invalid('oauth_url', 'client_id and client_secret need an oauth_url');
      const members = webhookMembers(deps, body);
      if (!(await mayManageWebhooks(deps, caller, members.group_guid || null))) throw forbidden();
      await checkGroup(deps, caller, members.group_guid);
      const { guid, commandId } = await deps.idempotency.ids(request, () => ({
        guid: `W${randomBytes(5).toString('hex')}`,
        commandId: randomUUID(),
      }));
      const saved = await deps.commands.send(
        MessageTypeNames.SaveWebhook,
        guid,
        {
          organization_id: caller.environment_id,
          user_id: caller._id,
          webhook_guid: guid,
          create: true,
          ...members,
        },
        { commandId },
      );
      const webhook = (await deps.store.getWebhook(caller.environment_id, guid))!;
      // Deliveries carry Standard Webhooks signatures made with this secret.
      return reply.code(201).send({ ...webhookJson(webhook, viewOf(deps)), signing_secret: saved.signing_secret });
    },
  );
}
