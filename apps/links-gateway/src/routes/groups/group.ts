import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotAllowedError } from '@platform/errors';
import { USAGE_LIMITS, bitlyTime, type GroupDoc } from '@platform/links';
import type { GroupAccess } from '../../access.js';
import type { RouteDeps } from '../../deps.js';

/** A 400 naming the member, for checks that need data (the schema does the shapes). */
export const invalid = (field: string, message: string) =>
  new InputError(`INVALID_ARG_${field.toUpperCase()}`, message, { issues: [{ field, code: 'invalid', message }] });

export const adminOnly = (access: GroupAccess) => {
  if (access.role !== 'GROUP_ADMIN')
    throw new NotAllowedError('FORBIDDEN', 'Only an admin of the group may change it.');
};

export const groupJson = (deps: RouteDeps, group: GroupDoc, userId: string) => ({
  references: { organization: `${deps.publicBaseUrl}/v4/organizations/${group.organization_id}` },
  name: group.name,
  guid: group._id,
  created: bitlyTime(group.created_at),
  modified: bitlyTime(group.modified_at),
  is_active: group.is_active,
  role: group.members.find((m) => m.user_id === userId)?.role ?? '',
  organization_guid: group.organization_id,
  bsds: group.bsds,
});

export const preferencesJson = (deps: RouteDeps, group: GroupDoc) => ({
  group_guid: group._id,
  domain_preference: group.domain_preference ?? deps.defaultDomain,
});

/** Sends the change (each member null leaves that field as it is) and answers the group as the worker left it. */
export async function updateGroup(
  deps: RouteDeps,
  caller: MemberRecord,
  group: GroupDoc,
  fields: { name?: string | null | undefined; bsds?: string[] | null | undefined; domain_preference?: string | null },
): Promise<GroupDoc> {
  await deps.commands.send(MessageTypeNames.UpdateLinksGroup, group._id, {
    organization_id: caller.environment_id,
    user_id: caller._id,
    group_guid: group._id,
    name: fields.name ?? null,
    bsds: fields.bsds ?? null,
    domain_preference: fields.domain_preference ?? null,
    clear_domain_preference: false,
    default_domain: deps.defaultDomain,
  });
  return (await deps.store.getGroup(group.organization_id, group._id))!;
}

/** The limits a `name` query asks for (the schema admits only known names), all of them when none. */
export function limitsNamed(raw: string | string[] | undefined) {
  const names = [raw ?? []]
    .flat()
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
  return USAGE_LIMITS.filter((l) => names.length === 0 || names.includes(l.name));
}
