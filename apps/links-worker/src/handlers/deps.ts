import type { Members } from '@platform/accounts';
import type { LinksStore, LinksWriter } from '@platform/links';
import type { Sealer } from '@platform/secrets';

export interface HandlerDeps {
  store: LinksStore;
  writer: LinksWriter;
  members: Members;
  sealer: Sealer;
  /** The links API's public address, for the `references` of webhook payloads. */
  apiBase: string;
}
