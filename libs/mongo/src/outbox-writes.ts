import type { mongo } from 'mongoose';
import type { StoredOutboxEntry } from './outbox.js';

/**
 * Told of every document of one collection that a write of this process stored with outbox entries; the
 * document is undefined when the write did not name it by `_id` (then the relay sweeps).
 */
export type OutboxWriteListener = (docId: string | undefined, entries: StoredOutboxEntry[] | undefined) => void;

type Command = Record<string, unknown>;
type Update = Record<string, unknown> | unknown[];

interface Candidate {
  /** The statement's position in the command (inserts and updates are batches). */
  index: number;
  docId: string | undefined;
  /** What the write added to the outbox, when the command says it exactly; otherwise the relay reads it. */
  entries: StoredOutboxEntry[] | undefined;
}

interface Pending {
  listeners: Set<OutboxWriteListener>;
  commandName: 'insert' | 'update' | 'findAndModify';
  ordered: boolean;
  statements: number;
  candidates: Candidate[];
}

const listenersByCollection = new Map<string, Set<OutboxWriteListener>>();
const monitored = new WeakSet<object>();

/**
 * Listens for the outbox writes of `db.collection` made by any client of this process that
 * `announceOutboxWrites` monitors; returns the function that stops listening.
 */
export function watchOutboxWrites(db: string, collection: string, listener: OutboxWriteListener): () => void {
  const key = `${db}.${collection}`;
  let listeners = listenersByCollection.get(key);
  if (!listeners) listenersByCollection.set(key, (listeners = new Set()));
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) listenersByCollection.delete(key);
  };
}

/**
 * The writer tells the relay: every insert, update or findAndModify of this client that stores outbox entries
 * (`has_outbox: true`, entries pushed or set) is announced, once the store has acknowledged it, to the
 * listeners of its collection, with the entries the command carried. The relay publishes them without reading
 * the document back; handlers need not name what they wrote. The client needs `monitorCommands: true`.
 */
export function announceOutboxWrites(client: mongo.MongoClient): void {
  if (monitored.has(client)) return;
  monitored.add(client);
  const pending = new Map<number, Pending>();
  client.on('commandStarted', (event) => {
    if (listenersByCollection.size === 0) return;
    const commandName = event.commandName;
    if (commandName !== 'insert' && commandName !== 'update' && commandName !== 'findAndModify') return;
    const command = event.command as Command;
    const listeners = listenersByCollection.get(`${event.databaseName}.${String(command[commandName])}`);
    if (!listeners) return;
    const statements = commandName === 'insert' ? command['documents'] : command['updates'];
    const candidates =
      commandName === 'insert'
        ? insertCandidates(command['documents'])
        : commandName === 'update'
          ? updateCandidates(command['updates'])
          : updateCandidates([{ q: command['query'], u: command['update'] }]);
    if (candidates.length === 0) return;
    pending.set(event.requestId, {
      listeners,
      commandName,
      ordered: command['ordered'] !== false,
      statements: Array.isArray(statements) ? statements.length : 1,
      candidates,
    });
  });
  client.on('commandSucceeded', (event) => {
    const started = pending.get(event.requestId);
    if (!started) return;
    pending.delete(event.requestId);
    for (const written of writtenBy(started, event.reply as Command)) {
      for (const listener of started.listeners) listener(written.docId, written.entries);
    }
  });
  client.on('commandFailed', (event) => void pending.delete(event.requestId));
}

function insertCandidates(documents: unknown): Candidate[] {
  if (!Array.isArray(documents)) return [];
  return documents.flatMap((doc: Record<string, unknown>, index) => {
    const entries = doc?.['outbox'];
    if (doc?.['has_outbox'] !== true || !Array.isArray(entries) || entries.length === 0) return [];
    return [{ index, docId: String(doc['_id']), entries: entries as StoredOutboxEntry[] }];
  });
}

function updateCandidates(updates: unknown): Candidate[] {
  if (!Array.isArray(updates)) return [];
  return updates.flatMap((statement: { q?: Record<string, unknown>; u?: Update }, index): Candidate[] => {
    if (!statement?.u) return [];
    const added = addedEntries(statement.u);
    if (added === false) return [];
    const id = statement.q?.['_id'];
    // A write that does not name its document by id: the relay sweeps for it.
    return typeof id === 'string'
      ? [{ index, docId: id, entries: added }]
      : [{ index, docId: undefined, entries: undefined }];
  });
}

/** The entries an update adds; undefined when it stores some the command does not spell out; false for none. */
function addedEntries(update: Update): StoredOutboxEntry[] | undefined | false {
  if (Array.isArray(update)) return undefined; // a pipeline: read the document
  const set = update['$set'] as Record<string, unknown> | undefined;
  const push = (update['$push'] as Record<string, unknown> | undefined)?.['outbox'];
  if (push !== undefined) {
    const each = (push as { $each?: unknown }).$each;
    return Array.isArray(each) ? (each as StoredOutboxEntry[]) : [push as StoredOutboxEntry];
  }
  const isReplacement = !Object.keys(update).some((k) => k.startsWith('$'));
  const fields = isReplacement ? update : set;
  if (fields?.['has_outbox'] !== true) return false;
  // A replacement, or a $set of the whole outbox, stores exactly this list.
  return Array.isArray(fields['outbox']) ? (fields['outbox'] as StoredOutboxEntry[]) : undefined;
}

function writtenBy(started: Pending, reply: Command): Candidate[] {
  if (reply['ok'] !== 1 && reply['ok'] !== true) return [];
  const failed = new Set(((reply['writeErrors'] as Array<{ index: number }> | undefined) ?? []).map((e) => e.index));
  const firstFailure = failed.size > 0 ? Math.min(...failed) : Infinity;
  const succeeded = (c: Candidate) => !failed.has(c.index) && (!started.ordered || c.index < firstFailure);
  switch (started.commandName) {
    case 'insert':
      return started.candidates.filter(succeeded);
    case 'findAndModify': {
      const last = reply['lastErrorObject'] as { n?: number } | undefined;
      return (last?.n ?? 0) > 0 ? started.candidates : [];
    }
    case 'update': {
      const modified = Number(reply['nModified'] ?? 0);
      const upserted = (reply['upserted'] as unknown[] | undefined)?.length ?? 0;
      if (modified + upserted === 0) return [];
      // One statement: it wrote. Several: the counts are totals, so each candidate is read to see what it holds.
      return started.statements === 1
        ? started.candidates.filter(succeeded)
        : started.candidates.filter(succeeded).map((c) => ({ ...c, entries: undefined }));
    }
  }
}
