import type { Accounts } from '@platform/accounts';
import type { CommandBus, Publisher } from '@platform/kafka';
import type { DeliveryStore } from '@platform/webhooks';
import type { Redis } from '@platform/redis';
import type { Sealer } from '@platform/secrets';
import type { UsermgmtStore } from '@platform/usermgmt';

export interface GatewayDeps {
  accounts: Accounts;
  store: UsermgmtStore;
  commands: CommandBus;
  /** Fire-and-forget commands to other domains (manual webhook redelivery). */
  publisher: Publisher;
  /** The delivery layer's read model: each endpoint's delivery log. */
  deliveries: DeliveryStore;
  redis: Redis;
  /** Opens webhook endpoints' sealed signing secrets, which WorkOS returns on every read. */
  sealer: Sealer;
}
