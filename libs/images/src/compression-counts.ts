import { MessageTypeNames, type ImageCompressed } from '@platform/contracts';
import { RateLimitedError } from '@platform/errors';
import {
  changeWithEvents,
  isDuplicateKeyError,
  outboxEvent,
  outboxSchemaFields,
  Schema,
  defineModel,
  type Connection,
  type OutboxCollection,
  type StoredOutboxEntry,
} from '@platform/mongo';

/**
 * One document per account and calendar month (UTC): `_id` is `<account>:<YYYY-MM>`, so every read and
 * write is a primary-key lookup. `charged` holds the ids of commands charged but not yet answered: a
 * command redone after a crash finds its id there and is not charged twice. Once its reply is stored
 * (and so will be replayed instead of redone), the id is released.
 */
export interface CompressionCountDoc {
  _id: string;
  account_id: string;
  month: string;
  count: number;
  charged: string[];
  outbox: StoredOutboxEntry[];
  has_outbox: boolean;
}

export class QuotaExceededError extends RateLimitedError {
  constructor(quota: number) {
    super('quota_exceeded', `Your monthly limit of ${quota} compressions has been reached.`);
    // Over quota is an answer, not a transient failure: the worker replies instead of retrying.
    Object.defineProperty(this, 'retriable', { value: false });
  }
}

export function monthOf(time: Date | number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/** The counter document of an account's month (the outbox relay reads it by this id). */
export function countDocId(accountId: string, time: Date | number): string {
  return `${accountId}:${monthOf(time)}`;
}

export interface ChargeRequest {
  accountId: string;
  /** The request time: a command redone later still counts in the month it was made. */
  requestedAt: number;
  commandId: string;
  compressions: number;
  /** 0 or less: no quota. */
  quota: number;
  event: Omit<
    ImageCompressed,
    'account_id' | 'compressions' | 'month' | 'month_count' | 'monthly_quota' | 'occurred_at'
  >;
}

export interface CompressionCounts {
  current(accountId: string, now?: Date): Promise<number>;
  /** Adds the compressions once per command id and returns the month's count after it. */
  charge(request: ChargeRequest): Promise<number>;
  /** Forget a command id whose reply is stored (see the doc comment above). */
  release(accountId: string, requestedAt: number, commandId: string): Promise<void>;
  outboxCollection(): OutboxCollection;
  ensureIndexes(): Promise<void>;
}

function compressedEvent(request: ChargeRequest, month: string, monthCount: number): StoredOutboxEntry {
  const value: ImageCompressed = {
    ...request.event,
    account_id: request.accountId,
    compressions: request.compressions,
    month,
    month_count: monthCount,
    monthly_quota: request.quota > 0 ? request.quota : null,
    occurred_at: Date.now(),
  };
  return outboxEvent(MessageTypeNames.ImageCompressed, request.accountId, value);
}

export function createCompressionCounts(connection: Connection): CompressionCounts {
  const schema = new Schema<CompressionCountDoc>(
    {
      _id: String,
      account_id: String,
      month: String,
      count: { type: Number, default: 0 },
      charged: { type: [String], default: [] },
      ...outboxSchemaFields,
    },
    { versionKey: false, collection: 'images_compression_counts' },
  );
  const Model = defineModel(connection, 'ImagesCompressionCount', schema);
  const col = Model.collection;
  const idOf = (accountId: string, month: string) => `${accountId}:${month}`; // = countDocId

  async function current(accountId: string, now = new Date()): Promise<number> {
    const doc = (await col.findOne({ _id: idOf(accountId, monthOf(now)) } as never, { projection: { count: 1 } })) as {
      count?: number;
    } | null;
    return doc?.count ?? 0;
  }

  async function ensureDoc(accountId: string, month: string) {
    try {
      await col.updateOne(
        { _id: idOf(accountId, month) } as never,
        { $setOnInsert: { account_id: accountId, month, count: 0, charged: [], outbox: [], has_outbox: false } },
        { upsert: true },
      );
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // two first charges of a month raced: the doc is there
    }
  }

  return {
    current,
    async ensureIndexes() {
      await Model.init();
    },
    outboxCollection: () => col as unknown as OutboxCollection,
    async charge(request) {
      const month = monthOf(request.requestedAt);
      const _id = idOf(request.accountId, month);
      if (request.compressions <= 0) return current(request.accountId, new Date(request.requestedAt));
      await ensureDoc(request.accountId, month);
      // Compare-and-set on the count, so the event can say where the month stands (a consumer sees the 80 %
      // crossing exactly once); each lost race means another charge went in, so the loop always progresses.
      for (;;) {
        const doc = (await col.findOne({ _id } as never)) as unknown as CompressionCountDoc | null;
        if (!doc) throw new Error(`the count document ${_id} vanished`);
        if ((doc.charged ?? []).includes(request.commandId)) return doc.count ?? 0; // a redone command: charged already
        const count = doc.count ?? 0;
        if (request.quota > 0 && count + request.compressions > request.quota)
          throw new QuotaExceededError(request.quota);
        const event = compressedEvent(request, month, count + request.compressions);
        // Count, dedupe id and event in one single-document update: all three happen, or none.
        const after = (await col.findOneAndUpdate(
          { _id, count: doc.count, charged: { $ne: request.commandId } } as never,
          changeWithEvents({}, [event], {
            $inc: { count: request.compressions },
            $push: { charged: request.commandId },
          }) as never,
          // No projection: FerretDB 1.x does not implement findAndModify's `fields`.
          { returnDocument: 'after' },
        )) as unknown as { count: number } | null;
        if (after) return after.count;
      }
    },
    async release(accountId, requestedAt, commandId) {
      await col.updateOne(
        { _id: idOf(accountId, monthOf(requestedAt)) } as never,
        { $pull: { charged: commandId } } as never,
      );
    },
  };
}
