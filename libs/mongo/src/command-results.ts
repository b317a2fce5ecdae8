import type { Connection, mongo } from 'mongoose';
import type { SerializedError } from '@platform/errors';
import { isDuplicateKeyError } from './errors.js';

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
} {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const collection = connection.db!.collection<ResultDoc>(options.collection ?? 'command_results');
  return {
    collection,
    async ensureIndexes() {
      await collection.createIndex({ expires_at: 1 });
    },
    async get(commandId: string): Promise<StoredReply | undefined> {
      const doc = await collection.findOne({ _id: commandId });
      if (!doc || doc.expires_at.getTime() < Date.now()) return undefined;
      return JSON.parse(options.sealer.open(doc.sealed_reply)) as StoredReply;
    },
    async save(commandId: string, reply: StoredReply): Promise<void> {
      const fields = {
        sealed_reply: options.sealer.seal(JSON.stringify(reply)),
        expires_at: new Date(Date.now() + ttlMs),
      };
      // An insert is one store statement where an upsert is a read and a write. The id is taken only when an
      // expired reply is still there (get ignored it) or the same command ran twice at once: then overwrite.
      try {
        await collection.insertOne({ _id: commandId, ...fields });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        await collection.updateOne({ _id: commandId }, { $set: fields });
      }
    },
  };
}
