import type { Connection, mongo } from 'mongoose';
import type { SerializedError } from '@platform/errors';
import { insertNew } from './insert-new.js';
import { roundTripBatcher } from '@platform/batching';

interface Sealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export interface ResultDoc {
  _id: string;
  sealed_reply: string;
  expires_at: Date;
}

type StoredReply = { ok: true; result: unknown } | { ok: false; error: SerializedError };

/**
 * Replies to processed commands, by command id. Replies may hold a secret shown once (a new webhook
 * secret), so they are sealed at rest; they expire after `ttlMs` (checked on read and swept).
 */
export function createMongoCommandResultStore(
  connection: Connection,
  options: { sealer: Sealer; ttlMs?: number; collection?: string },
): {
  collection: mongo.Collection<ResultDoc>;
  ensureIndexes(): Promise<void>;
  get(commandId: string): Promise<StoredReply | undefined>;
  save(commandId: string, reply: StoredReply): Promise<void>;
  getMany(commandIds: readonly string[]): Promise<Array<StoredReply | undefined>>;
  saveMany(replies: ReadonlyArray<{ commandId: string; reply: StoredReply }>): Promise<void>;
} {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const collection = connection.db!.collection<ResultDoc>(options.collection ?? 'command_results');

  // A worker handles several partitions at once, and a partition's fetched commands together: the lookups and
  // the saves of the commands in flight share round trips (one `_id $in` read, one unordered insert).
  const lookup = roundTripBatcher(async (ids: string[]) => {
    const docs = await collection.find({ _id: { $in: [...new Set(ids)] } }).toArray();
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    return ids.map((id) => byId.get(id));
  });
  const insert = roundTripBatcher(async (docs: ResultDoc[]) => {
    // The id is taken only when an expired reply is still there (get ignored it) or the same command ran twice at
    // once: then overwrite. An insert is one store statement where an upsert is a read and a write.
    const taken = await insertNew(collection, docs);
    for (const index of taken) {
      const { _id, ...fields } = docs[index]!;
      await collection.updateOne({ _id }, { $set: fields });
    }
    return docs.map(() => undefined);
  });

  const opened = (doc: ResultDoc | undefined): StoredReply | undefined =>
    !doc || doc.expires_at.getTime() < Date.now()
      ? undefined
      : (JSON.parse(options.sealer.open(doc.sealed_reply)) as StoredReply);
  const sealed = (commandId: string, reply: StoredReply): ResultDoc => ({
    _id: commandId,
    sealed_reply: options.sealer.seal(JSON.stringify(reply)),
    expires_at: new Date(Date.now() + ttlMs),
  });

  return {
    collection,
    async ensureIndexes() {
      await collection.createIndex({ expires_at: 1 });
    },
    async get(commandId) {
      return opened(await lookup(commandId));
    },
    async save(commandId, reply) {
      await insert(sealed(commandId, reply));
    },
    async getMany(commandIds) {
      return (await lookup.all(commandIds)).map(opened);
    },
    async saveMany(replies) {
      await insert.all(replies.map(({ commandId, reply }) => sealed(commandId, reply)));
    },
  };
}
