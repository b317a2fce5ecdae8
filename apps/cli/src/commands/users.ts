import type { UserDirectory } from '@platform/identity';
import { UsageError } from '../usage-error.js';

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY)
    throw new UsageError('pipe the password on standard input (it is never taken from the command line)');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * users create --email <e> --name <n> [--admin] [--time-zone <IANA>]  (password on stdin; prints the id)
 * users list
 */
export async function usersCommand(
  users: UserDirectory,
  args: string[],
  flags: Record<string, string | true>,
  out: (line: string) => void,
) {
  const [verb] = args;
  switch (verb) {
    case 'create': {
      const email = flags['email'];
      const name = flags['name'];
      if (typeof email !== 'string' || typeof name !== 'string') {
        throw new UsageError('users create --email <e-mail> --name <name> [--admin] [--time-zone <zone>] < password');
      }
      const user = await users.create({
        email,
        name,
        password: await readPassword(),
        role: flags['admin'] === true ? 'admin' : 'user',
        ...(typeof flags['time-zone'] === 'string' ? { timeZone: flags['time-zone'] } : {}),
      });
      out(user._id);
      return;
    }
    case 'list':
      for (const user of await users.list(1000)) out([user._id, user.email, user.role, user.name].join('\t'));
      return;
    default:
      throw new UsageError('users create|list');
  }
}
