import { MessageTypeNames } from '@platform/contracts';
import { Type, bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { WEBHOOK_EVENTS, webhookJson } from '@platform/links';
import { mayManageWebhooks } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { OptionalNullableSaying, errorResponses, security } from '../../schemas.js';
import { EVENT_ALIASES, Event, HttpUrl, Name, Webhook, WebhookParams, webhookInput } from './schemas.js';
import { checkGroup, forbidden, invalid, viewOf, webhookFor, webhookMembers } from './webhook.js';

/** Each member absent or null leaves that field as it is. */
const Body = Type.Object({
  guid: Type.String({ maxLength: 100, description: 'The webhook of the path.' }),
  organization_guid: OptionalNullableSaying(
    Type.String({ description: 'Its own organization: a webhook does not move.' }),
    'must be a string',
  ),
  name: OptionalNullableSaying(Name, 'must be 1 to 200 characters, not only spaces'),
  event: OptionalNullableSaying(
    Event,
    `must be one of ${[...WEBHOOK_EVENTS, ...Object.keys(EVENT_ALIASES)].join(', ')}`,
  ),
  url: OptionalNullableSaying(HttpUrl, 'must be an absolute http or https URL without a fragment'),
  ...webhookInput,
});
const checkBody = bodyChecker(Body);

export function updateWebhookRoute(app: HttpApp, deps: RouteDeps) {
  app.patch(
    '/v4/webhooks/:webhook_guid',
    {
      // Who may manage the webhook is decided before the body is judged: a stranger learns nothing from a 400.
      validatorCompiler: deferredBodyValidation(),
      schema: {
        summary: 'Edit a webhook',
        description:
          'A group_guid of empty makes it organization-wide; an oauth_url of empty removes the OAuth client; a rate_limit of null removes the limit.',
        tags: ['webhooks'],
        security,
        params: WebhookParams,
        body: Body,
        response: { 200: Webhook, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const current = await webhookFor(deps, caller, request.params.webhook_guid);
      checkBody(request.body);
      const body = request.body;
      if (body.guid !== current._id) throw invalid('guid', 'guid must be the webhook of the path');
      if (body.organization_guid != null && body.organization_guid !== current.organization_id)
        throw invalid('organization_guid', 'A webhook cannot move to another organization.');
      const members = webhookMembers(deps, body);
      if (members.group_guid !== null && !(await mayManageWebhooks(deps, caller, members.group_guid || null)))
        throw forbidden();
      await checkGroup(deps, caller, members.group_guid);
      await deps.commands.send(MessageTypeNames.SaveWebhook, current._id, {
        organization_id: caller.environment_id,
        user_id: caller._id,
        webhook_guid: current._id,
        create: false,
        ...members,
      });
      return webhookJson((await deps.store.getWebhook(caller.environment_id, current._id))!, viewOf(deps));
    },
  );
}
