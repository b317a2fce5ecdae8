import { randomBytes, randomUUID } from 'node:crypto';
import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { NotAllowedError, NotFoundError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { WEBHOOK_EVENTS, webhookJson, type WebhookDoc } from '@platform/links';
import { bodyOf, booleanField, invalid, present, stringField } from '../body.js';
import type { GatewayDeps } from '../deps.js';

const MAX_URL_LENGTH = 2048;
const forbidden = () => new NotAllowedError('FORBIDDEN', 'You are currently forbidden to access this resource.');

/** An absolute http(s) URL without a fragment; where it may point (never a private address) is the dispatcher's check. */
function urlField(body: Record<string, unknown>, field: string): string | null {
  const raw = stringField(body, field, MAX_URL_LENGTH);
  if (raw === null || raw === '') return raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, `${field} must be an absolute http or https URL`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.hash)
    throw invalid(field, `${field} must be an absolute http or https URL without a fragment`);
  return raw;
}

/**
 * Webhooks (Bitly's `/v4/webhooks`): an organization's owners manage all of them, a group's admins those of their
 * group. Deliveries go through the platform's webhook dispatcher, signed with the secret answered on create.
 */
export function webhookRoutes(app: HttpApp, deps: GatewayDeps) {
  const view = { apiBase: deps.publicBaseUrl };

  async function mayManage(caller: MemberRecord, groupGuid: string | null): Promise<boolean> {
    if (caller.role === 'owner') return true;
    if (!groupGuid) return false;
    const group = await deps.store.getGroup(groupGuid);
    return (
      group?.organization_id === caller.environment_id &&
      group.members.some((m) => m.user_id === caller._id && m.role === 'GROUP_ADMIN')
    );
  }

  async function webhookFor(caller: MemberRecord, guid: string): Promise<WebhookDoc> {
    const webhook = await deps.store.getWebhook(guid);
    if (!webhook || webhook.organization_id !== caller.environment_id)
      throw new NotFoundError('NOT_FOUND', 'No such webhook.');
    if (!(await mayManage(caller, webhook.group_guid))) throw forbidden();
    return webhook;
  }

  /** The members of a create or patch; null where the body leaves a field as it is. */
  function readMembers(body: Record<string, unknown>, create: boolean) {
    const name = stringField(body, 'name', 200);
    const event = stringField(body, 'event', 100);
    const url = urlField(body, 'url');
    if (create) {
      if (!name?.trim()) throw invalid('name', 'name is required');
      if (!event) throw invalid('event', 'event is required');
      if (!url) throw invalid('url', 'url is required');
    } else {
      if (name !== null && !name.trim()) throw invalid('name', 'name cannot be empty');
      if (url === '') throw invalid('url', 'url cannot be empty');
    }
    if (event !== null && !(WEBHOOK_EVENTS as readonly string[]).includes(event))
      throw invalid('event', `event is one of ${WEBHOOK_EVENTS.join(', ')}`);
    const oauthUrl = urlField(body, 'oauth_url');
    const clientId = stringField(body, 'client_id', 500);
    const clientSecret = stringField(body, 'client_secret', 500);
    if (create && oauthUrl && (!clientId || !clientSecret))
      throw invalid('oauth_url', 'oauth_url needs client_id and client_secret');
    if (create && !oauthUrl && (clientId || clientSecret))
      throw invalid('oauth_url', 'client_id and client_secret need an oauth_url');
    const groupGuid = stringField(body, 'group_guid', 100);
    return {
      name,
      event,
      url,
      is_active: booleanField(body, 'is_active'),
      group_guid: groupGuid,
      oauth_url: oauthUrl,
      client_id: clientId || null,
      // The secret leaves the gateway sealed: it never crosses Kafka or lands in a store in the clear.
      sealed_client_secret: clientSecret ? deps.sealer.seal(clientSecret) : null,
      fetch_tags: booleanField(body, 'fetch_tags'),
    };
  }

  async function checkGroup(caller: MemberRecord, groupGuid: string | null) {
    if (!groupGuid) return;
    const group = await deps.store.getGroup(groupGuid);
    if (!group || group.organization_id !== caller.environment_id)
      throw invalid('group_guid', 'No such group in the organization.');
  }

  app.get<{ Params: { organization_guid: string } }>(
    '/v4/organizations/:organization_guid/webhooks',
    { schema: { summary: "The organization's webhooks", tags: ['webhooks'] } },
    async (request) => {
      const caller = request.caller!;
      if (request.params.organization_guid !== caller.environment_id) throw forbidden();
      const all = await deps.store.webhooksOfOrganization(caller.environment_id);
      const visible: WebhookDoc[] = [];
      for (const w of all) if (await mayManage(caller, w.group_guid)) visible.push(w);
      return { webhooks: visible.map((w) => webhookJson(w, view)) };
    },
  );

  app.post('/v4/webhooks', { schema: { summary: 'Create a webhook', tags: ['webhooks'] } }, async (request, reply) => {
    const caller = request.caller!;
    const body = bodyOf(request);
    const organization = stringField(body, 'organization_guid', 100);
    if (!organization) throw invalid('organization_guid', 'organization_guid is required');
    if (organization !== caller.environment_id) throw forbidden();
    const members = readMembers(body, true);
    if (!(await mayManage(caller, members.group_guid || null))) throw forbidden();
    await checkGroup(caller, members.group_guid);
    const guid = `W${randomBytes(5).toString('hex')}`;
    const saved = await deps.commands.send(MessageTypeNames.SaveWebhook, guid, {
      organization_id: caller.environment_id,
      user_id: caller._id,
      webhook_guid: guid,
      create: true,
      ...members,
    });
    const webhook = (await deps.store.getWebhook(guid))!;
    // The signing secret is shown once, here: deliveries carry Standard Webhooks signatures made with it.
    return reply.code(201).send({ ...webhookJson(webhook, view), signing_secret: saved.signing_secret });
  });

  app.get<{ Params: { webhook_guid: string } }>(
    '/v4/webhooks/:webhook_guid',
    { schema: { summary: 'A webhook', tags: ['webhooks'] } },
    async (request) => {
      return webhookJson(await webhookFor(request.caller!, request.params.webhook_guid), view);
    },
  );

  app.patch<{ Params: { webhook_guid: string } }>(
    '/v4/webhooks/:webhook_guid',
    { schema: { summary: 'Edit a webhook', tags: ['webhooks'] } },
    async (request) => {
      const caller = request.caller!;
      const current = await webhookFor(caller, request.params.webhook_guid);
      const body = bodyOf(request);
      const guid = stringField(body, 'guid', 100);
      if (guid === null) throw invalid('guid', 'guid is required');
      if (guid !== current._id) throw invalid('guid', 'guid must be the webhook of the path');
      if (present(body['organization_guid']) && body['organization_guid'] !== current.organization_id)
        throw invalid('organization_guid', 'A webhook cannot move to another organization.');
      const members = readMembers(body, false);
      if (members.group_guid !== null && !(await mayManage(caller, members.group_guid || null))) throw forbidden();
      await checkGroup(caller, members.group_guid);
      await deps.commands.send(MessageTypeNames.SaveWebhook, current._id, {
        organization_id: caller.environment_id,
        user_id: caller._id,
        webhook_guid: current._id,
        create: false,
        ...members,
      });
      return webhookJson((await deps.store.getWebhook(current._id))!, view);
    },
  );

  app.delete<{ Params: { webhook_guid: string } }>(
    '/v4/webhooks/:webhook_guid',
    { schema: { summary: 'Delete a webhook', tags: ['webhooks'] } },
    async (request, reply) => {
      const caller = request.caller!;
      const webhook = await webhookFor(caller, request.params.webhook_guid);
      await deps.commands.send(MessageTypeNames.DeleteWebhook, webhook._id, {
        organization_id: caller.environment_id,
        webhook_guid: webhook._id,
      });
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { webhook_guid: string } }>(
    '/v4/webhooks/:webhook_guid/verify',
    { schema: { summary: 'Send a ping event to the webhook', tags: ['webhooks'] } },
    async (request) => {
      const caller = request.caller!;
      const webhook = await webhookFor(caller, request.params.webhook_guid);
      await deps.commands.send(MessageTypeNames.VerifyWebhook, webhook._id, {
        organization_id: caller.environment_id,
        webhook_guid: webhook._id,
        ping_id: randomUUID(),
      });
      return webhookJson((await deps.store.getWebhook(webhook._id))!, view);
    },
  );
}
