import type { MessageType, MessageTypes } from '@platform/contracts';
import { UnauthenticatedError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { isDuplicateKeyError, outboxEvent, type AggregateWriter, type StoredOutboxEntry } from '@platform/mongo';
import { input, lookupUsers, reachOf, type Reach, type UserLookup } from '@platform/scheduling';
import type { HandlerDeps } from './deps.js';

export type Msg<T extends MessageType> = IncomingMessage<T>;

/** The authorizing user of a command; a command without one is refused as a request without a token is. */
export function signedIn(actor: string | null): string {
  if (!actor) throw new UnauthenticatedError('missing_token', 'An access token is required.');
  return actor;
}

/** The authorizing user's reach, read fresh for each command (a membership change applies at once). */
export async function actorReach(deps: HandlerDeps, actor: string | null): Promise<Reach> {
  const userId = signedIn(actor);
  return reachOf(userId, await deps.store.membershipsOfUser(userId));
}

/**
 * The id a record names, checked as the path parameter it came from is (at most 15 digits), so a record and
 * the deprecated family record it replaces answer a bad id alike.
 */
export function recordId(id: number, field: string): number {
  return input.positiveId(String(id), field);
}

/** The fields a change names: a checked field that was not given is undefined, and is left out. */
export function definedOnly<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

export function userLookup(deps: HandlerDeps, ids: Iterable<string>): Promise<UserLookup> {
  return lookupUsers((id) => deps.users.get(id), ids);
}

/**
 * Creates the document of a command once: a command redone after a crash finds what it created (by
 * command id) instead of creating another, and two racing deliveries resolve on the unique index.
 */
export async function createOnce<T>(existing: () => Promise<T | null>, create: () => Promise<T>): Promise<T> {
  const found = await existing();
  if (found) return found;
  try {
    return await create();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const raced = await existing();
    if (!raced) throw error;
    return raced;
  }
}

/** A document's stored fields, without its outbox (what handlers build and presenters show). */
export type Fields<D> = Omit<D, 'outbox' | 'has_outbox'>;

/** Inserts a new document with its events and names it for the relay. */
export async function insert<D extends { _id: string }>(
  deps: HandlerDeps,
  aggregate: AggregateWriter<D>,
  doc: Fields<D>,
  events: StoredOutboxEntry[],
): Promise<D> {
  const stored = await aggregate.insert(doc, events);
  return stored;
}

/**
 * Sets `fields` (and updated_at) on a document and appends the event that reports the change, in one write,
 * if the document still matches `condition`; names it for the relay. False when nothing matched.
 */
export async function change<T extends MessageType>(
  deps: HandlerDeps,
  aggregate: AggregateWriter<{ _id: string }>,
  id: string,
  fields: Record<string, unknown>,
  type: T,
  key: string,
  value: MessageTypes[T],
  condition: Record<string, unknown> = {},
): Promise<boolean> {
  const changed = await aggregate.change(
    { ...condition, _id: id },
    { ...fields, updated_at: new Date(deps.clock.now()) },
    [outboxEvent(type, key, value)],
  );
  return changed;
}
