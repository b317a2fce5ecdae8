import type { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import type { GroupDoc } from '@platform/links';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

/** Name, branded domains and domain preference of a group; every domain must be the organization's. */
export async function updateGroup(
  deps: HandlerDeps,
  message: IncomingMessage<N['UpdateLinksGroup']>,
): Promise<{ group_guid: string }> {
  const v = message.value;
  const group = await deps.store.getGroup(v.organization_id, v.group_guid);
  if (!group) throw new NotFoundError('NOT_FOUND', 'No such group.');
  const changes: Partial<Pick<GroupDoc, 'name' | 'bsds' | 'domain_preference'>> = {};
  if (v.name !== null) changes.name = v.name;
  if (v.bsds !== null) {
    const own = new Set((await deps.store.domainsOfOrganization(v.organization_id)).map((d) => d._id));
    const bsds = [...new Set(v.bsds.map((d) => d.toLowerCase()))];
    const foreign = bsds.find((d) => !own.has(d));
    if (foreign !== undefined)
      throw new InputError('INVALID_ARG_BSDS', `${foreign} is not a branded domain of the organization.`);
    changes.bsds = bsds;
  }
  if (v.clear_domain_preference) changes.domain_preference = null;
  else if (v.domain_preference !== null) changes.domain_preference = v.domain_preference.toLowerCase();
  const bsds = changes.bsds ?? group.bsds;
  const preference = changes.domain_preference === undefined ? group.domain_preference : changes.domain_preference;
  if (preference !== null && preference !== v.default_domain && !bsds.includes(preference)) {
    throw new InputError('INVALID_ARG_DOMAIN_PREFERENCE', `The group cannot use the domain ${preference}.`);
  }
  // A domain taken away from the group stops being its preference.
  if (changes.bsds && preference !== null && preference !== v.default_domain && !changes.bsds.includes(preference))
    changes.domain_preference = null;
  await deps.writer.updateGroup(v.organization_id, group._id, changes, new Date(v.requested_at));
  return { group_guid: group._id };
}

/** The user's name and default group (one they are a member of). */
export async function updateUser(
  deps: HandlerDeps,
  message: IncomingMessage<N['UpdateLinksUser']>,
): Promise<{ user_id: string }> {
  const v = message.value;
  const profile = await deps.store.getProfile(v.organization_id, v.user_id);
  if (!profile) throw new NotFoundError('NOT_FOUND', 'No such user.');
  if (v.default_group_guid !== null) {
    const group = await deps.store.getGroup(v.organization_id, v.default_group_guid);
    if (!group?.members.some((m) => m.user_id === v.user_id)) {
      throw new InputError('INVALID_ARG_DEFAULT_GROUP_GUID', 'default_group_guid must be a group the user is in.');
    }
  }
  await deps.writer.updateProfile(
    v.organization_id,
    v.user_id,
    {
      ...(v.name !== null ? { name: v.name } : {}),
      ...(v.default_group_guid !== null ? { default_group_guid: v.default_group_guid } : {}),
    },
    new Date(v.requested_at),
  );
  return { user_id: v.user_id };
}
