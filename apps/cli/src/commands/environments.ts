import { isService, SERVICES, type Accounts } from '@platform/accounts';
import { UsageError } from '../usage-error.js';

/** environments create <service> [--name <name>] (prints the id) | environments list [<service>] */
export async function environmentsCommand(
  accounts: Accounts,
  args: string[],
  flags: Record<string, string | true>,
  out: (line: string) => void,
) {
  const [verb, service] = args;
  if (service !== undefined && !isService(service)) throw new UsageError(`service is one of ${SERVICES.join(', ')}`);
  switch (verb) {
    case 'create': {
      if (!service) throw new UsageError('environments create <service> [--name <name>]');
      const env = await accounts.createEnvironment(
        service,
        typeof flags['name'] === 'string' ? flags['name'] : 'default',
      );
      out(env._id);
      return;
    }
    case 'list':
      for (const env of await accounts.listEnvironments(service)) {
        out([env._id, env.service, env.name, env.created_at.toISOString()].join('\t'));
      }
      return;
    default:
      throw new UsageError('environments create|list');
  }
}
