import type { Accounts, Members } from '@platform/accounts';
import type { CommandBus } from '@platform/kafka';
import type { LinksStore } from '@platform/links';

export interface GatewayDeps {
  accounts: Accounts;
  members: Members;
  store: LinksStore;
  commands: CommandBus;
  commandTimeoutMs: number;
  publicBaseUrl: string;
  defaultDomain: string;
  scheme: 'http' | 'https';
}
