import type { Members } from '@platform/accounts';
import type { LinksStore, LinksWriter } from '@platform/links';

export interface HandlerDeps {
  store: LinksStore;
  writer: LinksWriter;
  members: Members;
  touched: (source: string, docId: string) => void;
}
