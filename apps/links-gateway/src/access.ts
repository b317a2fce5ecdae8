import type { MemberRecord } from '@platform/accounts';
import { InputError, NotAllowedError } from '@platform/errors';
import type { Directory, GroupDoc, GroupRole, LinkDoc } from '@platform/links';
import type { GatewayDeps } from './deps.js';

const forbidden = () => new NotAllowedError('FORBIDDEN', 'You are currently forbidden to access this resource.');

export interface GroupAccess {
  group: GroupDoc;
  role: GroupRole;
}

/**
 * The caller's role in a group; a group they are not in is as forbidden as one that does not exist. Read from
 * `directory` when the request reads more of it (`deps.store.forRequest`).
 */
export async function accessTo(
  deps: GatewayDeps,
  caller: MemberRecord,
  groupGuid: string,
  directory: Directory = deps.store,
): Promise<GroupAccess> {
  return accessIn(await directory.getGroup(caller.environment_id, groupGuid), caller);
}

/** The caller's role in a group already read, or null: not a member, or a group of another organization. */
export function roleIn(group: GroupDoc | null, caller: MemberRecord): GroupRole | null {
  if (group?.organization_id !== caller.environment_id) return null;
  return group.members.find((m) => m.user_id === caller._id)?.role ?? null;
}

/** The caller's role in a group already read (null: none such). */
export function accessIn(group: GroupDoc | null, caller: MemberRecord): GroupAccess {
  const role = roleIn(group, caller);
  if (!group || !role) throw forbidden();
  return { group, role };
}

/** The group a request names, or the caller's default group. */
export async function requestedGroup(
  deps: GatewayDeps,
  caller: MemberRecord,
  groupGuid: unknown,
  directory: Directory = deps.store,
): Promise<GroupAccess> {
  if (groupGuid !== undefined && groupGuid !== null && groupGuid !== '') {
    if (typeof groupGuid !== 'string')
      throw new InputError('INVALID_ARG_GROUP_GUID', 'group_guid must be a string.', {
        issues: [{ field: 'group_guid', code: 'invalid', message: 'must be a string' }],
      });
    return accessTo(deps, caller, groupGuid, directory);
  }
  const profile = await directory.getProfile(caller.environment_id, caller._id);
  if (!profile) throw forbidden();
  return accessTo(deps, caller, profile.default_group_guid, directory);
}

/** Editing or deleting a link or a QR code: its group's admins and editors, or the user who made it. */
export function assertMayEdit(access: GroupAccess, caller: MemberRecord, record: Pick<LinkDoc, 'created_by'>): void {
  if (access.role === 'GROUP_USER' && record.created_by !== caller.username) throw forbidden();
}

/** Creating or editing a campaign or channel: the group's admins and editors. */
export function assertMayOrganize(access: GroupAccess): void {
  if (access.role === 'GROUP_USER')
    throw new NotAllowedError('FORBIDDEN', 'Only admins and editors of the group may change campaigns and channels.');
}

/** Managing webhooks: an organization's owners all of them, a group's admins those of their group. */
export async function mayManageWebhooks(
  deps: GatewayDeps,
  caller: MemberRecord,
  groupGuid: string | null,
): Promise<boolean> {
  if (caller.role === 'owner') return true;
  if (!groupGuid) return false;
  return roleIn(await deps.store.getGroup(caller.environment_id, groupGuid), caller) === 'GROUP_ADMIN';
}

/** The domains a group may shorten on: the default short domain and its branded ones. */
export function assertDomain(deps: GatewayDeps, access: GroupAccess, domain: string): void {
  if (domain !== deps.defaultDomain && !access.group.bsds.includes(domain)) {
    throw new InputError('INVALID_ARG_DOMAIN', `The group cannot use the domain ${domain}.`, {
      issues: [{ field: 'domain', code: 'invalid', message: 'not a domain of this group' }],
    });
  }
}
