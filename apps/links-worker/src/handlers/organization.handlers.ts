import type { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { GROUP_ROLES, isBrandedDomain, type GroupRole } from '@platform/links';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

export async function setUpOrganization(
  deps: HandlerDeps,
  message: IncomingMessage<N['SetUpLinksOrganization']>,
): Promise<{ group_guid: string }> {
  const v = message.value;
  const at = new Date(v.requested_at);
  await deps.writer.upsertGroupMember(
    { guid: v.group_guid, organization_id: v.organization_id, name: v.group_name },
    v.admin_user_id,
    'GROUP_ADMIN',
    at,
  );
  await deps.writer.ensureProfile(v.admin_user_id, v.organization_id, v.group_guid, at);
  return { group_guid: v.group_guid };
}

export async function addGroupMember(
  deps: HandlerDeps,
  message: IncomingMessage<N['AddLinksGroupMember']>,
): Promise<{ group_guid: string }> {
  const v = message.value;
  if (!(GROUP_ROLES as readonly string[]).includes(v.role))
    throw new InputError('INVALID_ARG_ROLE', `role is one of ${GROUP_ROLES.join(', ')}`);
  if (!(await deps.members.get(v.organization_id, v.member_user_id)))
    throw new NotFoundError('NOT_FOUND', 'No such user in the organization.');
  const group = await deps.store.getGroup(v.organization_id, v.group_guid);
  if (!group && v.group_name === null) throw new NotFoundError('NOT_FOUND', 'No such group.');
  const at = new Date(v.requested_at);
  const joined = await deps.writer.upsertGroupMember(
    { guid: v.group_guid, organization_id: v.organization_id, name: v.group_name },
    v.member_user_id,
    v.role as GroupRole,
    at,
  );
  // The guid is another organization's group.
  if (!joined) throw new NotFoundError('NOT_FOUND', 'No such group in the organization.');
  await deps.writer.ensureProfile(v.member_user_id, v.organization_id, v.group_guid, at);
  return { group_guid: v.group_guid };
}

export async function addBrandedDomain(
  deps: HandlerDeps,
  message: IncomingMessage<N['AddBrandedDomain']>,
): Promise<{ domain: string }> {
  const v = message.value;
  const domain = v.domain.toLowerCase();
  if (!isBrandedDomain(domain))
    throw new InputError('INVALID_ARG_DOMAIN', 'A branded domain is a host name of at most 32 characters.');
  const taken = await deps.store.getDomain(domain);
  if (taken && taken.organization_id !== v.organization_id)
    throw new InputError('INVALID_ARG_DOMAIN', 'The domain belongs to another organization.');
  for (const guid of v.group_guids) {
    if (!(await deps.store.getGroup(v.organization_id, guid)))
      throw new NotFoundError('NOT_FOUND', `No group ${guid} in the organization.`);
  }
  await deps.writer.addDomain({
    _id: domain,
    organization_id: v.organization_id,
    group_guids: [...new Set([...(taken?.group_guids ?? []), ...v.group_guids])],
    redirect_status: v.redirect_status === 302 ? 302 : 301,
    created_at: new Date(v.requested_at),
  });
  return { domain };
}
