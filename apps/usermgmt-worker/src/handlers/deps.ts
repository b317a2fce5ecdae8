import type { Sealer } from '@platform/secrets';
import type { UsermgmtStore, UsermgmtWriter } from '@platform/usermgmt';

export interface HandlerDeps {
  store: UsermgmtStore;
  writer: UsermgmtWriter;
  sealer: Sealer;
  /** Names a document that received events with the change, so that the relay publishes them at once. */
  touched(source: string, id: string): void;
}
