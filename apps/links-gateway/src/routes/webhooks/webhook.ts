import type { MemberRecord } from '@platform/accounts';
import { InputError, NotAllowedError, NotFoundError } from '@platform/errors';
import type { WebhookDoc } from '@platform/links';
import { mayManageWebhooks } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { EVENT_ALIASES } from './schemas.js';

export const forbidden = () => new NotAllowedError('FORBIDDEN', 'You are currently forbidden to access this resource.');

/** A 400 naming the member, for checks that need data or another member (the schema does the shapes). */
export const invalid = (field: string, message: string) =>
  new InputError(`INVALID_ARG_${field.toUpperCase()}`, message, { issues: [{ field, code: 'invalid', message }] });

export const viewOf = (deps: RouteDeps) => ({ apiBase: deps.publicBaseUrl });

/** A webhook of the caller's organization (404 otherwise) that the caller may manage (403 otherwise). */
export async function webhookFor(deps: RouteDeps, caller: MemberRecord, guid: string): Promise<WebhookDoc> {
  const webhook = await deps.store.getWebhook(caller.environment_id, guid);
  if (!webhook) throw new NotFoundError('NOT_FOUND', 'No such webhook.');
  if (!(await mayManageWebhooks(deps, caller, webhook.group_guid))) throw forbidden();
  return webhook;
}

/** A group named by a create or patch must be one of the organization's ('' is the whole organization). */
export async function checkGroup(deps: RouteDeps, caller: MemberRecord, groupGuid: string | null) {
  if (!groupGuid) return;
  if (!(await deps.store.getGroup(caller.environment_id, groupGuid)))
    throw invalid('group_guid', 'No such group in the organization.');
}

interface Input {
  name?: string | null;
  event?: string | null;
  url?: string | null;
  is_active?: boolean | null;
  group_guid?: string | null;
  oauth_url?: string | null;
  client_id?: string | null;
  client_secret?: string | null;
  fetch_tags?: boolean | null;
  rate_limit?: number | null;
  ordered?: boolean | null;
}

/** The pattern admits some strings no URL parser takes (a bad host, a port over 65535). */
function parsedUrl(field: string, url: string | null): string | null {
  if (url && !URL.canParse(url)) throw invalid(field, `${field} must be an absolute http or https URL`);
  return url;
}

/** The members of SaveWebhook; null where the body leaves a field as it is (a null rate_limit clears it). */
export function webhookMembers(deps: RouteDeps, body: Input) {
  const clientSecret = body.client_secret ?? null;
  return {
    name: body.name ?? null,
    event: body.event ? (EVENT_ALIASES[body.event] ?? body.event) : null,
    url: parsedUrl('url', body.url ?? null),
    is_active: body.is_active ?? null,
    group_guid: body.group_guid ?? null,
    oauth_url: parsedUrl('oauth_url', body.oauth_url ?? null),
    client_id: body.client_id || null,
    // The secret leaves the gateway sealed: it never crosses Kafka or lands in a store in the clear.
    sealed_client_secret: clientSecret ? deps.sealer.seal(clientSecret) : null,
    fetch_tags: body.fetch_tags ?? null,
    rate_limit: body.rate_limit ?? null,
    clear_rate_limit: body.rate_limit === null,
    ordered: body.ordered ?? null,
  };
}
