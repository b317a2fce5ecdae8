import type { MessageType, MessageTypes } from '@platform/contracts';
import { UnauthenticatedError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { isDuplicateKeyError } from '@platform/mongo';
import { input, lookupUsers, reachOf, schedulingEvent, type Reach, type UserLookup } from '@platform/scheduling';
import type { HandlerDeps } from './deps.js';

export type Msg<T extends MessageType> = IncomingMessage<T>;

export function payloadOf(message: { value: { payload: string } }): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.value.payload);
  } catch {
    parsed = undefined;
  }
  return input.asObject(parsed);
}

/** The authorizing user's reach, read fresh for each command (a membership change applies at once). */
export async function actorReach(deps: HandlerDeps, actor: string | null): Promise<Reach> {
  if (!actor) throw new UnauthenticatedError('missing_token', 'An access token is required.');
  return reachOf(actor, await deps.store.membershipsOfUser(actor));
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

/** A change and the event that reports it, in one single-document write (the event waits in the outbox). */
export function changeWithEvent<T extends MessageType>(fields: Record<string, unknown>, type: T, key: string, value: MessageTypes[T]) {
  return { $set: { ...fields, has_outbox: true, updated_at: new Date() }, $push: { outbox: schedulingEvent(type, key, value) } };
}

export function now(): Date {
  return new Date();
}
