import type { Sealer } from '@platform/secrets';
import type { UsermgmtStore } from '@platform/usermgmt';

export interface HandlerDeps {
  store: UsermgmtStore;
  sealer: Sealer;
}
