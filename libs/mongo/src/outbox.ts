import type { mongo } from 'mongoose';

type Document = mongo.Document;
export type OutboxCollection = mongo.Collection<Document>;
import type { MessageType } from '@platform/contracts';
import { watchOutboxWrites, type OutboxWriteListener } from './outbox-writes.js';

export interface StoredOutboxEntry {
  id: string;
  topic: string;
  key: string;
  type: MessageType;
  value: unknown;
  headers?: Record<string, string>;
  created_at: Date;
}

/** Add to an aggregate's schema: events wait here, in the same document as the change they report. */
export const outboxSchemaFields = {
  outbox: {
    // `type` needs the long form: a bare `type: String` would declare the whole subdocument a string.
    type: [
      {
        _id: false,
        id: String,
        topic: String,
        key: String,
        type: { type: String },
        value: {},
        headers: {},
        created_at: Date,
      },
    ],
    default: [],
  },
  has_outbox: { type: Boolean, default: false, index: true },
};

interface OutboxDoc {
  _id: unknown;
  outbox: StoredOutboxEntry[];
}

export function createMongoOutboxSource(collection: OutboxCollection, name = collection.collectionName) {
  async function acknowledge(docId: string, entries: unknown[]) {
    // Aggregates here use string ids (prefixed, like we_…), never ObjectIds.
    const filter = { _id: docId as unknown as Document['_id'] };
    // One write in the common case: clear the outbox if it still holds exactly what was published.
    const cleared = await collection.updateOne({ ...filter, outbox: entries } as Document, {
      $set: { outbox: [], has_outbox: false },
    });
    if (cleared.matchedCount > 0) return;
    // Entries were appended meanwhile: remove the published ones by exact value (FerretDB 1.x's $pull
    // takes no conditions on subdocuments); the flag stays set for the rest.
    await collection.updateOne(filter, { $pullAll: { outbox: entries } } as Document);
  }

  return {
    name,
    watch(listener: OutboxWriteListener) {
      return watchOutboxWrites(collection.dbName, collection.collectionName, listener);
    },
    async pending(limit: number) {
      const docs = (await collection
        .find({ has_outbox: true }, { projection: { outbox: 1 } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray()) as unknown as OutboxDoc[];
      return docs.filter((d) => d.outbox.length > 0).map((d) => ({ docId: String(d._id), entries: d.outbox }));
    },
    async pendingIn(docIds: string[]) {
      // One primary-key lookup each: FerretDB (the local store) scans for anything but a bare {_id} filter.
      const docs = (await Promise.all(
        docIds.map((id) =>
          collection.findOne({ _id: id as unknown as Document['_id'] }, { projection: { outbox: 1 } }),
        ),
      )) as unknown as (OutboxDoc | null)[];
      return docs
        .filter((d): d is OutboxDoc => d !== null && Array.isArray(d.outbox) && d.outbox.length > 0)
        .map((d) => ({ docId: String(d._id), entries: d.outbox }));
    },
    /**
     * One `update` command for all: each document's outbox cleared if it still holds exactly what was published.
     * When entries were appended to some meanwhile (fewer matched), every document goes through `acknowledge`,
     * whose clear finds nothing left to clear where this one did.
     */
    async acknowledgeMany(docs: Array<{ docId: string; entries: unknown[] }>) {
      const result = await collection.bulkWrite(
        docs.map((d) => ({
          updateOne: {
            filter: { _id: d.docId as unknown as Document['_id'], outbox: d.entries } as Document,
            update: { $set: { outbox: [], has_outbox: false } },
          },
        })),
        { ordered: false },
      );
      if (result.matchedCount === docs.length) return;
      for (const d of docs) await acknowledge(d.docId, d.entries);
    },
    acknowledge,
  };
}
