import { randomBytes } from 'node:crypto';
import { isService, MEMBER_ROLES, SERVICES, type Accounts, type MemberRole, type Members } from '@platform/accounts';
import { LINK_PATTERN, PLATFORM_NOTICES_DEPLOYMENT } from '@platform/notifications';
import { parseGroupRole, type LinksSetup } from './links.js';
import { UsageError } from '../usage-error.js';

/** Services whose callers are users of a deployment, each key acting as one of them. */
const USER_KEYED = new Set(['notifications', 'links']);

/**
 * keys create <service> [--environment <id>] [--name <name>]   prints the new key alone on stdout
 *   notifications: a new deployment with its owner, or with --environment a new user of it
 *   (--role owner|member|system, default member; --username <name>; --email <e-mail>); the key acts as that user;
 *   --link scheduling-user:<id>|images-account:<id> links the user to that (OAuth reviews, image quota notices
 *   reach it), and without --environment gives the platform notices deployment's user for it
 *   links: a new organization with its default group and its admin, or with --environment and --group a new
 *   user of that group (--group-role GROUP_ADMIN|GROUP_EDITOR|GROUP_USER, default GROUP_USER)
 * keys list --environment <id>
 * keys revoke <key_id>
 */
export async function keysCommand(
  accounts: Accounts,
  members: Members,
  args: string[],
  flags: Record<string, string | true>,
  out: (line: string) => void,
  links?: () => LinksSetup,
) {
  const [verb, arg] = args;
  switch (verb) {
    case 'create': {
      if (!arg || !isService(arg))
        throw new UsageError(`keys create <service>: service is one of ${SERVICES.join(', ')}`);
      const link = typeof flags['link'] === 'string' ? flags['link'] : undefined;
      if (link !== undefined && (arg !== 'notifications' || !LINK_PATTERN.test(link))) {
        throw new UsageError(
          '--link is for notifications keys: scheduling-user:<user id> or images-account:<account id>',
        );
      }
      if (link && !flags['environment']) {
        // The platform's own deployment: the user made for this link (the notifier makes the same one on first use).
        await accounts.ensureEnvironment(PLATFORM_NOTICES_DEPLOYMENT, 'notifications', 'platform notices');
        const email = typeof flags['email'] === 'string' ? flags['email'] : null;
        const user = await members.ensureLinked(PLATFORM_NOTICES_DEPLOYMENT, link, { email, name: email ?? link });
        process.stderr.write(`user ${user._id} (${user.username}, linked to ${link})\n`);
        const { key, record } = await accounts.createKey(PLATFORM_NOTICES_DEPLOYMENT, { subject: user._id });
        process.stderr.write(`created ${record._id} in ${PLATFORM_NOTICES_DEPLOYMENT}\n`);
        out(key);
        return;
      }
      let environmentId = typeof flags['environment'] === 'string' ? flags['environment'] : undefined;
      if (environmentId) {
        const env = await accounts.getEnvironment(environmentId);
        if (!env) throw new UsageError(`no environment ${environmentId}`);
        if (env.service !== arg)
          throw new UsageError(`environment ${environmentId} belongs to ${env.service}, not ${arg}`);
      } else {
        const name = typeof flags['name'] === 'string' ? flags['name'] : 'default';
        environmentId = (await accounts.createEnvironment(arg, name))._id;
      }
      let subject: string | undefined;
      if (USER_KEYED.has(arg)) {
        const role = typeof flags['role'] === 'string' ? flags['role'] : flags['environment'] ? 'member' : 'owner';
        if (!(MEMBER_ROLES as readonly string[]).includes(role))
          throw new UsageError(`--role is one of ${MEMBER_ROLES.join(', ')}`);
        const username =
          typeof flags['username'] === 'string'
            ? flags['username'].toLowerCase()
            : `${role}-${randomBytes(3).toString('hex')}`;
        const email = typeof flags['email'] === 'string' ? flags['email'] : null;
        const user = await members.create(environmentId, {
          username,
          role: role as MemberRole,
          email,
          ...(link ? { links: [link] } : {}),
        });
        subject = user._id;
        process.stderr.write(`user ${user._id} (${user.username}, ${user.role})\n`);
        if (arg === 'links') {
          // Bitly's users act in groups: a new organization gets its default group with this user as admin.
          const setup = links!();
          if (flags['environment']) {
            const group = flags['group'];
            if (typeof group !== 'string')
              throw new UsageError(
                'keys create links --environment <id> needs --group <guid> (see: links groups list)',
              );
            await setup.addMember(environmentId, user._id, group, parseGroupRole(flags['group-role'], 'GROUP_USER'));
            process.stderr.write(`member of group ${group}\n`);
          } else {
            process.stderr.write(`group ${await setup.newOrganization(environmentId, user._id)} (GROUP_ADMIN)\n`);
          }
        }
      }
      const { key, record } = await accounts.createKey(environmentId, subject ? { subject } : {});
      process.stderr.write(`created ${record._id} in ${environmentId}\n`);
      out(key);
      return;
    }
    case 'list': {
      const environmentId = flags['environment'];
      if (typeof environmentId !== 'string') throw new UsageError('keys list --environment <id>');
      for (const k of await accounts.listKeys(environmentId)) {
        out([k._id, k.service, k.hint, k.created_at.toISOString(), k.revoked_at ? 'revoked' : 'active'].join('\t'));
      }
      return;
    }
    case 'revoke': {
      if (!arg) throw new UsageError('keys revoke <key_id>');
      await accounts.revokeKey(arg);
      out(`revoked ${arg}`);
      return;
    }
    default:
      throw new UsageError('keys create|list|revoke');
  }
}
