import type { Accounts } from '@platform/accounts';
import type { CommandBus } from '@platform/kafka';
import type { Redis } from '@platform/redis';
import type { UsermgmtStore } from '@platform/usermgmt';

export interface GatewayDeps {
  accounts: Accounts;
  store: UsermgmtStore;
  commands: CommandBus;
  redis: Redis;
  commandTimeoutMs: number;
}
