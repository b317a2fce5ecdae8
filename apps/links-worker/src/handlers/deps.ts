import type { Members } from '@platform/accounts';
import type { LinksStore, LinksWriter } from '@platform/links';
import type { Sealer } from '@platform/secrets';
import type { ReusableLinks } from '../reusable-links.js';

export interface HandlerDeps {
  store: LinksStore;
  writer: LinksWriter;
  members: Members;
  /** A shorten's lookup of its group's link for the long URL, primed for a batch's shortens (see reusable-links). */
  reusables: ReusableLinks;
  sealer: Sealer;
  /** The links API's public address, for the `references` of webhook payloads. */
  apiBase: string;
}
