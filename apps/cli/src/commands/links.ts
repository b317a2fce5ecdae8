import { MessageTypeNames } from '@platform/contracts';
import type { CommandBus } from '@platform/kafka';
import { GROUP_ROLES, isBrandedDomain, newGroupGuid, type GroupRole, type LinksStore } from '@platform/links';
import { UsageError } from '../usage-error.js';

/**
 * Groups, memberships and branded domains are the links worker's to write: the CLI sends it commands (Kafka
 * and the worker must be running), as Bitly's web app would.
 */
export function linksSetup(commands: () => Promise<CommandBus>) {
  const send: CommandBus['send'] = async (type, key, value, options) =>
    (await commands()).send(type, key, value, options);
  return {
    /** A new organization's default group, its first user the admin; returns the group guid. */
    async newOrganization(organizationId: string, adminUserId: string): Promise<string> {
      const groupGuid = newGroupGuid();
      await send(MessageTypeNames.SetUpLinksOrganization, groupGuid, {
        organization_id: organizationId,
        group_guid: groupGuid,
        group_name: 'Default group',
        admin_user_id: adminUserId,
      });
      return groupGuid;
    },
    async addMember(
      organizationId: string,
      userId: string,
      groupGuid: string,
      role: GroupRole,
      newGroupName: string | null = null,
    ): Promise<void> {
      await send(MessageTypeNames.AddLinksGroupMember, groupGuid, {
        organization_id: organizationId,
        group_guid: groupGuid,
        group_name: newGroupName,
        member_user_id: userId,
        role,
      });
    },
    send,
  };
}

export type LinksSetup = ReturnType<typeof linksSetup>;

export function parseGroupRole(value: unknown, fallback: GroupRole): GroupRole {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(GROUP_ROLES as readonly string[]).includes(value))
    throw new UsageError(`--group-role is one of ${GROUP_ROLES.join(', ')}`);
  return value as GroupRole;
}

/**
 * links groups create --org <id> --name <name> --admin <user id>     prints the group guid
 * links groups list --org <id>
 * links domains add --org <id> --domain <host> --group <guid>[,<guid>] [--redirect 301|302]
 * links domains list --org <id>
 * links features set --org <id> --static-qr-codes on|off    static QR codes (POST /v4/qr-codes/static) for the organization
 */
export async function linksCommand(
  setup: LinksSetup,
  store: LinksStore,
  args: string[],
  flags: Record<string, string | true>,
  out: (line: string) => void,
) {
  const [noun, verb] = args;
  const org = flags['org'];
  if (typeof org !== 'string') throw new UsageError('links ... --org <organization id>');
  if (noun === 'groups' && verb === 'create') {
    const [name, admin] = [flags['name'], flags['admin']];
    if (typeof name !== 'string' || typeof admin !== 'string')
      throw new UsageError('links groups create --org <id> --name <name> --admin <user id>');
    const guid = newGroupGuid();
    await setup.addMember(org, admin, guid, 'GROUP_ADMIN', name);
    out(guid);
  } else if (noun === 'groups' && verb === 'list') {
    for (const g of await store.groupsOfOrganization(org)) out([g._id, g.name, g.bsds.join(',')].join('\t'));
  } else if (noun === 'domains' && verb === 'add') {
    const [domain, groups] = [flags['domain'], flags['group']];
    if (typeof domain !== 'string' || !isBrandedDomain(domain.toLowerCase()) || typeof groups !== 'string') {
      throw new UsageError(
        'links domains add --org <id> --domain <host of at most 32 characters> --group <guid>[,<guid>] [--redirect 301|302]',
      );
    }
    const redirect = flags['redirect'] === '302' ? 302 : 301;
    await setup.send(MessageTypeNames.AddBrandedDomain, org, {
      organization_id: org,
      domain: domain.toLowerCase(),
      group_guids: groups.split(','),
      redirect_status: redirect,
    });
    out(domain.toLowerCase());
  } else if (noun === 'domains' && verb === 'list') {
    for (const d of await store.domainsOfOrganization(org))
      out([d._id, d.group_guids.join(','), String(d.redirect_status)].join('\t'));
  } else if (noun === 'features' && verb === 'set') {
    const value = flags['static-qr-codes'];
    if (value !== 'on' && value !== 'off')
      throw new UsageError('links features set --org <id> --static-qr-codes on|off');
    const features = await setup.send(MessageTypeNames.SetLinksOrganizationFeatures, org, {
      organization_id: org,
      static_qr_codes: value === 'on',
    });
    out(`static_qr_codes\t${features.static_qr_codes ? 'on' : 'off'}`);
  } else {
    throw new UsageError('links groups create|list, links domains add|list, links features set');
  }
}
