import { randomUUID } from 'node:crypto';
import { topicOfRecord, type MessageType, type MessageTypes } from '@platform/contracts';
import { injectTraceContext } from '@platform/telemetry';
import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './errors.js';
import { insertValidated } from './insert-validated.js';
import type { StoredOutboxEntry } from './outbox.js';

/**
 * The one way a change and the events that report it are written: in the same single-document write, the
 * events waiting in the document's outbox until the relay publishes them (on the topic the catalogue gives
 * their record), with the trace context of the request that caused them.
 */
export function outboxEvent<T extends MessageType>(
  type: T,
  key: string,
  value: MessageTypes[T],
  at = new Date(),
): StoredOutboxEntry {
  return {
    id: randomUUID(),
    topic: topicOfRecord(type),
    key,
    type,
    value,
    headers: injectTraceContext({}),
    created_at: at,
  };
}

/** A new document carrying its events (for an insert). */
export function withEvents<D extends object>(
  doc: D,
  events: StoredOutboxEntry[],
): D & { outbox: StoredOutboxEntry[]; has_outbox: boolean } {
  return { ...doc, outbox: events, has_outbox: events.length > 0 };
}

/** An update that sets `fields` and appends `events` (more update operators may be given beside). */
export function changeWithEvents(
  fields: Record<string, unknown>,
  events: StoredOutboxEntry[],
  more: {
    $push?: Record<string, unknown>;
    $pull?: Record<string, unknown>;
    $inc?: Record<string, number>;
    $unset?: Record<string, unknown>;
    $setOnInsert?: Record<string, unknown>;
  } = {},
) {
  const set = { ...fields, ...(events.length > 0 ? { has_outbox: true } : {}) };
  const push = { ...(more.$push ?? {}), ...(events.length > 0 ? { outbox: { $each: events } } : {}) };
  return {
    ...(Object.keys(set).length > 0 ? { $set: set } : {}),
    ...(Object.keys(push).length > 0 ? { $push: push } : {}),
    ...(more.$pull ? { $pull: more.$pull } : {}),
    ...(more.$inc ? { $inc: more.$inc } : {}),
    ...(more.$unset ? { $unset: more.$unset } : {}),
    ...(more.$setOnInsert ? { $setOnInsert: more.$setOnInsert } : {}),
  };
}

/** The writes of one aggregate collection, every one carrying the events that report it. */
export interface AggregateWriter<D extends { _id: string }> {
  /** The collection, as the outbox relay names the source of these documents. */
  readonly source: string;
  /** Inserts a new document with its events. */
  insert(doc: Omit<D, 'outbox' | 'has_outbox'>, events: StoredOutboxEntry[]): Promise<D>;
  /** Inserts it unless a document with its `_id` is there (a redone step, a taken id): false, and nothing written. */
  insertOnce(doc: Omit<D, 'outbox' | 'has_outbox'>, events: StoredOutboxEntry[]): Promise<boolean>;
  /**
   * Changes the document the filter (which names its `_id`) matches and appends the events, in one
   * single-document update; false when nothing matched (a compare-and-set lost, or already done).
   */
  change(
    filter: { _id: string } & Record<string, unknown>,
    fields: Record<string, unknown>,
    events: StoredOutboxEntry[],
    more?: Parameters<typeof changeWithEvents>[2],
  ): Promise<boolean>;
}

export function aggregateWriter<D extends { _id: string }>(model: Model<D>): AggregateWriter<D> {
  return {
    source: model.collection.collectionName,
    async insert(doc, events) {
      const stored = withEvents(doc, events) as unknown as D;
      await insertValidated(model, stored);
      return stored;
    },
    async insertOnce(doc, events) {
      try {
        await insertValidated(model, withEvents(doc, events));
        return true;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },
    async change(filter, fields, events, more) {
      const result = await model.updateOne(filter as never, changeWithEvents(fields, events, more) as never);
      return result.modifiedCount === 1;
    },
  };
}
