import type { Accounts, Members } from '@platform/accounts';
import type { Reports } from '@platform/analytics';
import type { CommandBus } from '@platform/kafka';
import type { LinksStore } from '@platform/links';
import type { Sealer } from '@platform/secrets';

export interface GatewayDeps {
  accounts: Accounts;
  members: Members;
  store: LinksStore;
  /** The metrics operations' reads of the aggregate buckets (written by the analytics aggregator). */
  analytics: Reports;
  commands: CommandBus;
  /** Seals secrets a request brings (a webhook's OAuth client secret) before they go anywhere. */
  sealer: Sealer;
  publicBaseUrl: string;
  defaultDomain: string;
  scheme: 'http' | 'https';
}
