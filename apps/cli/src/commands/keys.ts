import { isService, SERVICES, type Accounts } from '@platform/accounts';
import { UsageError } from '../usage-error.js';

/**
 * keys create <service> [--environment <id>] [--name <name>]   prints the new key alone on stdout
 * keys list --environment <id>
 * keys revoke <key_id>
 */
export async function keysCommand(accounts: Accounts, args: string[], flags: Record<string, string | true>, out: (line: string) => void) {
  const [verb, arg] = args;
  switch (verb) {
    case 'create': {
      if (!arg || !isService(arg)) throw new UsageError(`keys create <service>: service is one of ${SERVICES.join(', ')}`);
      let environmentId = typeof flags['environment'] === 'string' ? flags['environment'] : undefined;
      if (environmentId) {
        const env = await accounts.getEnvironment(environmentId);
        if (!env) throw new UsageError(`no environment ${environmentId}`);
        if (env.service !== arg) throw new UsageError(`environment ${environmentId} belongs to ${env.service}, not ${arg}`);
      } else {
        const name = typeof flags['name'] === 'string' ? flags['name'] : 'default';
        environmentId = (await accounts.createEnvironment(arg, name))._id;
      }
      const { key, record } = await accounts.createKey(environmentId);
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
