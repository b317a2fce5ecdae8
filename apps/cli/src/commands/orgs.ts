import { MessageTypeNames } from '@platform/contracts';
import type { UserDirectory } from '@platform/identity';
import type { CommandBus } from '@platform/kafka';
import { ROLES, type Role, type SchedulingStore } from '@platform/scheduling';
import { UsageError } from '../usage-error.js';

/**
 * Organizations are the scheduling worker's to write: the CLI sends it commands, as a gateway would, and reads
 * through the scheduling store.
 *
 * orgs create --name <n> --owner <e-mail> [--slug <s>] [--time-zone <IANA>]   (prints the organization id)
 * orgs add-member --org <id> --email <e-mail> [--role MEMBER|ADMIN|OWNER]
 * orgs list
 */
export async function orgsCommand(
  store: SchedulingStore,
  commands: () => Promise<CommandBus>,
  users: UserDirectory,
  args: string[],
  flags: Record<string, string | true>,
  out: (line: string) => void,
) {
  const [verb] = args;
  switch (verb) {
    case 'create': {
      const name = flags['name'];
      const ownerEmail = flags['owner'];
      if (typeof name !== 'string' || typeof ownerEmail !== 'string')
        throw new UsageError('orgs create --name <name> --owner <e-mail> [--slug <slug>] [--time-zone <zone>]');
      const owner = await users.findByEmail(ownerEmail);
      if (!owner) throw new UsageError(`no user with the e-mail ${ownerEmail}; create it with: cli users create`);
      const org = await (
        await commands()
      ).send(MessageTypeNames.CreateOrganization, `user:${owner._id}`, {
        name,
        owner_user_id: owner._id,
        slug: typeof flags['slug'] === 'string' ? flags['slug'] : null,
        time_zone: typeof flags['time-zone'] === 'string' ? flags['time-zone'] : null,
      });
      out(String(org.id));
      return;
    }
    case 'add-member': {
      const orgId = Number(flags['org']);
      const email = flags['email'];
      const role = typeof flags['role'] === 'string' ? flags['role'].toUpperCase() : 'MEMBER';
      if (!Number.isSafeInteger(orgId) || typeof email !== 'string' || !(ROLES as readonly string[]).includes(role)) {
        throw new UsageError('orgs add-member --org <id> --email <e-mail> [--role MEMBER|ADMIN|OWNER]');
      }
      const user = await users.findByEmail(email);
      if (!user) throw new UsageError(`no user with the e-mail ${email}`);
      const membership = await (
        await commands()
      ).send(MessageTypeNames.AddOrganizationMember, `team:${orgId}`, {
        org_id: orgId,
        user_id: user._id,
        role: role as Role,
      });
      out(String(membership.id));
      return;
    }
    case 'list':
      for (const org of await store.organizations()) out([org.id, org.slug, org.name].join('\t'));
      return;
    default:
      throw new UsageError('orgs create|add-member|list');
  }
}
