import { Type, type HttpApp } from '@platform/http';
import { webhookJson, type WebhookDoc } from '@platform/links';
import { mayManageWebhooks } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { Webhook } from './schemas.js';
import { forbidden, viewOf } from './webhook.js';

export function listWebhooksRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/organizations/:organization_guid/webhooks',
    {
      schema: {
        summary: "The organization's webhooks",
        description: 'All of them for its owners; a group admin sees those of their groups.',
        tags: ['webhooks'],
        security,
        params: Type.Object({ organization_guid: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: Type.Object({ webhooks: Type.Array(Webhook) }), ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      if (request.params.organization_guid !== caller.environment_id) throw forbidden();
      const all = await deps.store.webhooksOfOrganization(caller.environment_id);
      const visible: WebhookDoc[] = [];
      for (const w of all) if (await mayManageWebhooks(deps, caller, w.group_guid)) visible.push(w);
      return { webhooks: visible.map((w) => webhookJson(w, viewOf(deps))) };
    },
  );
}
