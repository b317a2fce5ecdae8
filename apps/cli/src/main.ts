import { createAccounts, createMembers } from '@platform/accounts';
import { ConfigError } from '@platform/config';
import { createUserDirectory } from '@platform/identity';
import { connectMongo } from '@platform/mongo';
import { createRedis } from '@platform/redis';
import { cliCommandBus } from './command-bus.js';
import { createSchedulingStore } from '@platform/scheduling';
import { parseArgs } from './args.js';
import { deadLettersCommand } from './commands/dead-letters.js';
import { environmentsCommand } from './commands/environments.js';
import { keysCommand } from './commands/keys.js';
import { linksCommand, linksSetup } from './commands/links.js';
import { createLinksStore } from '@platform/links';
import { orgsCommand } from './commands/orgs.js';
import { usersCommand } from './commands/users.js';
import { config } from './config.js';
import { UsageError } from './usage-error.js';

const USAGE = `usage:
  cli keys create <service> [--environment <id>] [--name <name>]   create an API key (new environment unless given); prints the key
                 notifications: the key acts as a user: a new deployment's owner, or with --environment a new
                 user of it [--role owner|member|system] [--username <name>] [--email <e-mail>]
                 [--link scheduling-user:<id>|images-account:<id>]: notices about that reach the user; without
                 --environment the key is for the platform's own user of that link
                 links: a new organization, its default group and its admin (the key acts for the admin); with
                 --environment <org> --group <guid> [--group-role GROUP_ADMIN|GROUP_EDITOR|GROUP_USER] a new user of it
  cli links groups create --org <id> --name <name> --admin <user id>   a group of the links service; prints its guid
  cli links groups list --org <id>
  cli links domains add --org <id> --domain <host> --group <guid>[,<guid>] [--redirect 301|302]   a branded short domain
  cli links domains list --org <id>
  cli links features set --org <id> --static-qr-codes on|off     static QR codes for the organization
  cli keys list --environment <id>
  cli keys revoke <key_id>
  cli environments create <service> [--name <name>]
  cli environments list [<service>]
  cli users create --email <e-mail> --name <name> [--admin] [--time-zone <zone>] < password
                                                                   a user of the scheduling web app; prints the id
  cli users list
  cli orgs create --name <name> --owner <e-mail> [--slug <slug>] [--time-zone <zone>]
                                                                   an organization of the scheduling service, owned by that user; prints its id
  cli orgs add-member --org <id> --email <e-mail> [--role MEMBER|ADMIN|OWNER]
  cli orgs list
  cli dlq list <topic> [--type <record type>]      the dead letters of <topic>.dlq: offset, time, type, id, key, attempts, error
  cli dlq replay <topic> [--type <record type>]    publish them to <topic> again (consumers drop what they already applied)
services: usermgmt, images, notifications, links`;

async function main(argv: string[]): Promise<number> {
  const { positionals, flags } = parseArgs(argv);
  const [group, ...rest] = positionals;
  if (!group || flags['help']) {
    console.error(USAGE);
    return group ? 0 : 64;
  }
  const cfg = config.get();
  if (group === 'dlq') {
    await deadLettersCommand(cfg, rest, flags, (line) => process.stdout.write(`${line}\n`));
    return 0;
  }
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'cli' });
  const redis = createRedis(cfg.redisUrl, { name: 'cli' });
  const accounts = createAccounts({ connection: mongo, redis, pepper: cfg.apiKeyPepper });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const commands = cliCommandBus(cfg, redis);
  try {
    await accounts.ensureIndexes();
    if (group === 'keys') {
      const members = createMembers(mongo);
      await members.ensureIndexes();
      await keysCommand(accounts, members, rest, flags, out, () => linksSetup(() => commands.open()));
    } else if (group === 'links')
      await linksCommand(
        linksSetup(() => commands.open()),
        createLinksStore(mongo),
        rest,
        flags,
        out,
      );
    else if (group === 'environments') await environmentsCommand(accounts, rest, flags, out);
    else if (group === 'users') {
      const users = createUserDirectory(mongo);
      await users.ensureIndexes();
      await usersCommand(users, rest, flags, out);
    } else if (group === 'orgs') {
      await orgsCommand(
        createSchedulingStore(mongo),
        () => commands.open(),
        createUserDirectory(mongo),
        rest,
        flags,
        out,
      );
    } else throw new UsageError(`unknown command ${group}`);
    return 0;
  } finally {
    await commands.close();
    await mongo.close();
    redis.disconnect();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) console.error(`${error.message}\n\n${USAGE}`);
    else if (error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof UsageError ? 64 : 1);
  },
);
