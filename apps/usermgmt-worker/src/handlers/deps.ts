import type { Sealer } from '@platform/secrets';
import type { UsermgmtStore, UsermgmtWriter } from '@platform/usermgmt';

export interface HandlerDeps {
  store: UsermgmtStore;
  writer: UsermgmtWriter;
  sealer: Sealer;
}
