import { NotFoundError, UnavailableError } from '@platform/errors';
import type { StoredOutboxEntry } from '@platform/mongo';
import type { OAuthClientDoc } from '@platform/oauth';
import type { HandlerDeps } from './deps.js';

export interface ClientChange {
  set: Partial<Omit<OAuthClientDoc, '_id' | 'version' | 'outbox' | 'has_outbox'>>;
  events: StoredOutboxEntry[];
}

/**
 * Read, decide, write-if-unchanged: every client change is conditional on the version it was decided on,
 * and writes its events in the same update (outbox), so a change and its events land together or not at
 * all. `decide` returns null when there is nothing to do (a replay, or no difference).
 */
export async function mutateClient(
  deps: HandlerDeps,
  clientId: string,
  ownerUserId: string | null,
  decide: (client: OAuthClientDoc) => ClientChange | null,
): Promise<OAuthClientDoc> {
  const { store } = deps;
  for (let attempt = 0; attempt < 5; attempt++) {
    const client = await store.getClient(clientId, { fresh: true });
    if (!client || (ownerUserId !== null && client.owner_user_id !== ownerUserId)) {
      throw new NotFoundError('client_not_found', 'No OAuth client with this id belongs to you.');
    }
    const change = decide(client);
    if (!change) return client;
    const now = new Date();
    const changed = await deps.writer.clients.change(
      { _id: clientId, version: client.version },
      { ...change.set, version: client.version + 1, updated_at: now },
      change.events,
    );
    if (changed) {
      return { ...client, ...change.set, version: client.version + 1, updated_at: now };
    }
  }
  throw new UnavailableError('client_busy', 'The client is being changed concurrently; try again.');
}

/** What command replies carry about a client: never secret hashes. */
export function presentClient(client: Omit<OAuthClientDoc, 'outbox' | 'has_outbox'>) {
  return {
    id: client._id,
    name: client.name,
    status: client.status,
    kind: client.kind,
    scopes: client.scopes,
    redirect_uris: client.redirect_uris,
    secrets: client.secrets.map((s) => ({
      id: s.id,
      hint: s.hint,
      created_at: s.created_at.toISOString?.() ?? String(s.created_at),
    })),
  };
}
