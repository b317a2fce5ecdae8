import { roundTripBatcher, type BatchedRoundTrip } from '@platform/batching';
import { mongo, type Model } from 'mongoose';
import { writeErrorsOf } from './insert-new.js';

type Doc = Record<string, unknown>;

/** Per collection: the inserts of concurrent callers, joined into one round trip (see insertValidated). */
const joinedInserts = new WeakMap<object, BatchedRoundTrip<Doc, Error | undefined>>();

/**
 * Inserts made while one is in flight on the same collection go out together in one unordered `insert`
 * command, each document with its own outcome: the store writes them in one statement, and one that breaks a
 * unique key fails alone, with the driver's error for it (E11000), as if inserted by itself. A command that
 * fails as a whole (a dropped connection) fails every insert it carried.
 */
function joinedInsertsInto(collection: mongo.Collection<Doc>): BatchedRoundTrip<Doc, Error | undefined> {
  let joined = joinedInserts.get(collection);
  if (!joined) {
    joined = roundTripBatcher(async (docs: Doc[]): Promise<Array<Error | undefined>> => {
      if (docs.length === 1) {
        await collection.insertOne(docs[0]!);
        return [undefined];
      }
      try {
        await collection.insertMany(docs, { ordered: false });
        return docs.map(() => undefined);
      } catch (error) {
        const failures = writeErrorsOf(error);
        if (!failures) throw error;
        const outcomes: Array<Error | undefined> = docs.map(() => undefined);
        for (const failure of failures) {
          const message = failure.errmsg ?? `write error ${failure.code ?? ''}`.trim();
          outcomes[failure.index] = new mongo.MongoServerError({ message, errmsg: message, code: failure.code });
        }
        return outcomes;
      }
    });
    joinedInserts.set(collection, joined);
  }
  return joined;
}

/**
 * `Model.create` without its save machinery: the schema casts the document, fills its defaults and validates it
 * (a failure throws the same ValidationError), and the driver inserts it. What is stored is the same; the save
 * path's middleware, change tracking and the stack trace it captures on every save are not run, which halves
 * the CPU of a hot insert (about 0.8 against 0.4 ms here; issue 41, docs/performance.md). For schemas without
 * save middleware, which is all of the platform's.
 *
 * Outbox entries are stored as given: `outboxEvent` makes them in the shape the outbox schema declares, and
 * casting them (their free-form values are cloned) was two fifths of the cast of a short link.
 *
 * Concurrent inserts into one collection (a worker's partitions handled side by side) share a round trip: see
 * joinedInsertsInto. Each caller still learns its own outcome, a taken unique key as the same E11000 error.
 */
export async function insertValidated<T>(model: Model<T>, doc: unknown): Promise<void> {
  const { outbox, ...fields } = doc as { outbox?: unknown };
  const attach = Array.isArray(outbox) && outbox.length > 0 && model.schema.path('outbox') !== undefined;
  // Cast with an empty outbox, so that the entries take its place among the fields.
  const cast = new model(attach ? { ...fields, outbox: [] } : doc);
  const invalid = cast.validateSync();
  if (invalid) throw invalid;
  const stored = cast.toObject() as Doc;
  if (attach) stored['outbox'] = outbox;
  const failure = await joinedInsertsInto(model.collection as unknown as mongo.Collection<Doc>)(stored);
  if (failure) throw failure;
}
