import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { resolveInfra, uniqueName } from '@platform/testing';

let mongo: MongoConnection;

beforeAll(async () => {
  const name = uniqueName('atomic');
  mongo = await connectMongo({ url: resolveInfra().mongoUrl, dbName: name, appName: name });
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

// The platform relies on MongoDB's single-document atomicity (outbox clears, leases, versioned updates).
// FerretDB 1.x does not provide it unpatched; deploy/local builds it with per-document locks (ADR 0006, 0010).
describe('the document store', () => {
  it('never loses one of two concurrent updates of a document', async () => {
    const docs = mongo.db!.collection<{ _id: string; a: number; b: number }>('pairs');
    const ids = Array.from({ length: 20 }, (_, i) => `d${i}`);
    await docs.insertMany(ids.map((_id) => ({ _id, a: 0, b: 0 })));
    await Promise.all(
      ids.flatMap((_id) => [docs.updateOne({ _id }, { $set: { a: 1 } }), docs.updateOne({ _id }, { $set: { b: 1 } })]),
    );
    const after = await docs.find({}).toArray();
    expect(after.filter((d) => d.a !== 1 || d.b !== 1)).toEqual([]);
  });

  it('lets exactly one of several concurrent compare-and-set updates win', async () => {
    const docs = mongo.db!.collection<{ _id: string; version: number; owner: string | null }>('cas');
    await docs.insertOne({ _id: 'x', version: 1, owner: null });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        docs.updateOne({ _id: 'x', version: 1 }, { $set: { version: 2, owner: `w${i}` } }),
      ),
    );
    expect(results.reduce((n, r) => n + r.modifiedCount, 0)).toBe(1);
  });

  it('applies concurrent upserts of one new document once each', async () => {
    const counters = mongo.db!.collection<{ _id: string; n: number }>('counters');
    const results = await Promise.all(
      Array.from({ length: 16 }, () => counters.updateOne({ _id: 'month' }, { $inc: { n: 1 } }, { upsert: true })),
    );
    expect(await counters.findOne({ _id: 'month' })).toEqual({ _id: 'month', n: 16 });
    expect(results.filter((r) => r.upsertedCount === 1)).toHaveLength(1);
  });

  it('lets exactly one of several concurrent findOneAndUpdate claims win', async () => {
    const jobs = mongo.db!.collection<{ _id: string; owner: string | null }>('jobs');
    await jobs.insertOne({ _id: 'job', owner: null });
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        jobs.findOneAndUpdate({ _id: 'job', owner: null }, { $set: { owner: `w${i}` } }),
      ),
    );
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
  });

  it('never deletes a document that a concurrent update changed so that it no longer matches', async () => {
    const docs = mongo.db!.collection<{ _id: string; version: number }>('versions');
    const ids = Array.from({ length: 30 }, (_, i) => `v${i}`);
    await docs.insertMany(ids.map((_id) => ({ _id, version: 1 })));
    const outcomes = await Promise.all(
      ids.map(async (_id) => {
        const [updated, deleted] = await Promise.all([
          docs.updateOne({ _id }, { $set: { version: 2 } }),
          docs.deleteOne({ _id, version: 1 }),
        ]);
        return {
          _id,
          updated: updated.modifiedCount,
          deleted: deleted.deletedCount,
          after: await docs.findOne({ _id }),
        };
      }),
    );
    // Either the delete came first (the update then found nothing) or the update did (the delete then matched nothing).
    const inconsistent = outcomes.filter((o) =>
      o.deleted === 1 ? o.updated !== 0 || o.after !== null : o.updated !== 1 || o.after?.version !== 2,
    );
    expect(inconsistent).toEqual([]);
  });

  it('deletes many at once only what still matches under its locks, whatever concurrent updates do', async () => {
    const docs = mongo.db!.collection<{ _id: string; version: number }>('versions-many');
    const ids = Array.from({ length: 250 }, (_, i) => `m${i}`);
    await docs.insertMany(ids.map((_id) => ({ _id, version: 1 })));
    const [updates, deleted] = await Promise.all([
      Promise.all(ids.map((_id, i) => (i % 2 === 0 ? docs.updateOne({ _id }, { $set: { version: 2 } }) : undefined))),
      docs.deleteMany({ _id: { $in: ids }, version: 1 }),
    ]);
    const left = await docs.find({}).toArray();
    // Every document is either gone (deleted before any update reached it) or there with version 2 (updated first).
    expect(left.every((d) => d.version === 2)).toBe(true);
    expect(deleted.deletedCount).toBe(ids.length - left.length);
    const updatedAfterDelete = updates.filter((u) => u && u.matchedCount === 0).length;
    expect(left.length + updatedAfterDelete).toBe(ids.length / 2);
  });

  // Deletes that name their documents by _id lock and read those ids directly, without a query to find them.
  it('deletes by _id exactly what MongoDB would: one for deleteOne, missing and repeated ids counted once', async () => {
    const docs = mongo.db!.collection<{ _id: string; version: number }>('versions-by-id');
    await docs.insertMany(['a', 'b', 'c', 'd'].map((_id, i) => ({ _id, version: i % 2 })));
    expect((await docs.deleteOne({ _id: { $in: ['x', 'a', 'b'] } })).deletedCount).toBe(1);
    expect(await docs.countDocuments({ _id: { $in: ['a', 'b'] } })).toBe(1);
    const many = await docs.deleteMany({ _id: { $in: ['a', 'b', 'c', 'c', 'd', 'missing'] }, version: 1 });
    expect(many.deletedCount).toBe((await docs.countDocuments({ _id: 'a' })) === 0 ? 2 : 1);
    expect((await docs.find({}).toArray()).every((d) => d.version === 0)).toBe(true);
    expect((await docs.deleteOne({ _id: 'c', version: 1 })).deletedCount).toBe(0);
    expect((await docs.deleteOne({ _id: 'c' })).deletedCount).toBe(1);
    expect(await docs.countDocuments({ _id: { $ne: 'a' } })).toBe(0);
  });

  it('applies bulk writes of updates by _id in order, losing none of the updates that race with them', async () => {
    // A bulk write of updateOne-by-_id statements is one `update` command, which the store applies as one run.
    const docs = mongo.db!.collection<{ _id: string; n: number; tag?: string }>('bulk-by-id');
    const ids = Array.from({ length: 60 }, (_, i) => `u${i}`);
    await docs.insertMany(ids.map((_id) => ({ _id, n: 0 })));
    const bulks = Array.from({ length: 4 }, () =>
      docs.bulkWrite(
        ids.map((_id) => ({ updateOne: { filter: { _id }, update: { $inc: { n: 1 } } } })),
        { ordered: false },
      ),
    );
    const singles = ids.map((_id) => docs.updateOne({ _id }, { $inc: { n: 10 } }));
    const results = await Promise.all(bulks);
    await Promise.all(singles);
    expect(results.map((r) => [r.matchedCount, r.modifiedCount])).toEqual(bulks.map(() => [60, 60]));
    expect((await docs.find({}).toArray()).filter((d) => d.n !== 14)).toEqual([]);

    // Filters are checked against the document as the statements before left it, also on the same document.
    const chained = await docs.bulkWrite([
      { updateOne: { filter: { _id: 'u0', n: 14 }, update: { $set: { tag: 'first' } } } },
      { updateOne: { filter: { _id: 'u0', tag: 'first' }, update: { $set: { tag: 'second' } } } },
      { updateOne: { filter: { _id: 'u1', n: 99 }, update: { $set: { tag: 'never' } } } },
      { updateOne: { filter: { _id: 'missing' }, update: { $set: { tag: 'never' } } } },
    ]);
    expect([chained.matchedCount, chained.modifiedCount]).toEqual([2, 2]);
    expect(await docs.findOne({ _id: 'u0' })).toEqual({ _id: 'u0', n: 14, tag: 'second' });
    expect(await docs.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', n: 14 });
  });

  it('stops an ordered bulk update at a failing statement, keeping the ones before it', async () => {
    const docs = mongo.db!.collection<{ _id: string; n: number }>('bulk-failing');
    // A text where a number is due: $inc fails on it.
    await docs.insertMany([
      { _id: 'a', n: 1 },
      { _id: 'b', n: 'text' as unknown as number },
      { _id: 'c', n: 1 },
    ]);
    const failed = await docs
      .bulkWrite([
        { updateOne: { filter: { _id: 'a' }, update: { $inc: { n: 1 } } } },
        { updateOne: { filter: { _id: 'b' }, update: { $inc: { n: 1 } } } },
        { updateOne: { filter: { _id: 'c' }, update: { $inc: { n: 1 } } } },
      ])
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failed).not.toBeNull();
    expect(await docs.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', n: 2 },
      { _id: 'b', n: 'text' },
      { _id: 'c', n: 1 },
    ]);
  });

  it('lets writes to other documents proceed while a long multi-document update runs', async () => {
    const bulk = mongo.db!.collection<{ _id: string; n: number }>('bulk');
    const other = mongo.db!.collection<{ _id: string; n: number }>('other');
    const count = 3000;
    await bulk.insertMany(Array.from({ length: count }, (_, i) => ({ _id: `b${String(i).padStart(5, '0')}`, n: 0 })));
    await other.insertOne({ _id: 'o', n: 0 });

    let settled = false;
    const long = bulk.updateMany({}, { $inc: { n: 1 } }).finally(() => (settled = true));
    // Started: the first documents carry the increment while the update goes on through the others.
    while (!(await bulk.findOne({ n: 1 }))) await new Promise((r) => setTimeout(r, 5));
    for (let i = 0; i < 5; i++) await other.updateOne({ _id: 'o' }, { $inc: { n: 1 } });
    await bulk.updateOne({ _id: `b${String(count - 1).padStart(5, '0')}` }, { $set: { touched: true } });
    const overlapped = !settled;

    expect((await long).modifiedCount).toBe(count);
    expect(overlapped).toBe(true);
    expect(await other.findOne({ _id: 'o' })).toEqual({ _id: 'o', n: 5 });
    expect(await bulk.countDocuments({ n: 1 })).toBe(count);
  });
});
