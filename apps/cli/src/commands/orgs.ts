import type { UserDirectory } from '@platform/identity';
import { ROLES, addOrganizationMember, createOrganization, type Role, type SchedulingStore } from '@platform/scheduling';
import { UsageError } from '../usage-error.js';

/**
 * orgs create --name <n> --owner <e-mail> [--slug <s>] [--time-zone <IANA>]   (prints the organization id)
 * orgs add-member --org <id> --email <e-mail> [--role MEMBER|ADMIN|OWNER]
 * orgs list
 */
export async function orgsCommand(
  store: SchedulingStore,
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
      if (typeof name !== 'string' || typeof ownerEmail !== 'string') throw new UsageError('orgs create --name <name> --owner <e-mail> [--slug <slug>] [--time-zone <zone>]');
      const owner = await users.findByEmail(ownerEmail);
      if (!owner) throw new UsageError(`no user with the e-mail ${ownerEmail}; create it with: cli users create`);
      const org = await createOrganization(store, {
        name,
        ownerUserId: owner._id,
        ...(typeof flags['slug'] === 'string' ? { slug: flags['slug'] } : {}),
        ...(typeof flags['time-zone'] === 'string' ? { timeZone: flags['time-zone'] } : {}),
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
      out(String((await addOrganizationMember(store, { orgId, userId: user._id, role: role as Role })).id));
      return;
    }
    case 'list':
      for (const org of await store.models.Team.find({ is_organization: true, deleted_at: null }).sort({ id: 1 }).lean()) out([org.id, org.slug, org.name].join('\t'));
      return;
    default:
      throw new UsageError('orgs create|add-member|list');
  }
}
