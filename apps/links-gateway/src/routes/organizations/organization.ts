import type { MemberRecord } from '@platform/accounts';
import { NotFoundError } from '@platform/errors';
import { bitlyTime } from '@platform/links';
import type { RouteDeps } from '../../deps.js';

/** The caller's organization as Bitly shows one; another organization's guid is 404 (the caller sees one only). */
export async function organizationJson(deps: RouteDeps, caller: MemberRecord, guid = caller.environment_id) {
  const organization = guid === caller.environment_id ? await deps.accounts.getEnvironment(guid) : null;
  if (!organization) throw new NotFoundError('NOT_FOUND', 'No such organization.');
  const domains = await deps.store.domainsOfOrganization(organization._id);
  return {
    references: { groups: `${deps.publicBaseUrl}/v4/groups?organization_guid=${organization._id}` },
    name: organization.name,
    guid: organization._id,
    is_active: true,
    tier: 'platform',
    tier_family: 'platform',
    tier_display_name: 'Platform',
    role: caller.role === 'owner' ? 'ORG_ADMIN' : 'ORG_MEMBER',
    created: bitlyTime(organization.created_at),
    modified: bitlyTime(organization.created_at),
    bsds: domains.map((d) => d._id),
  };
}
