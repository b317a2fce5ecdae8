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
// FerretDB 1.x does not provide it unpatched; deploy/local builds it with writes serialised (ADR 0006).
describe('the document store', () => {
  it('never loses one of two concurrent updates of a document', async () => {
    const docs = mongo.db!.collection<{ _id: string; a: number; b: number }>('pairs');
    const ids = Array.from({ length: 20 }, (_, i) => `d${i}`);
    await docs.insertMany(ids.map((_id) => ({ _id, a: 0, b: 0 })));
    await Promise.all(ids.flatMap((_id) => [docs.updateOne({ _id }, { $set: { a: 1 } }), docs.updateOne({ _id }, { $set: { b: 1 } })]));
    const after = await docs.find({}).toArray();
    expect(after.filter((d) => d.a !== 1 || d.b !== 1)).toEqual([]);
  });

  it('lets exactly one of several concurrent compare-and-set updates win', async () => {
    const docs = mongo.db!.collection<{ _id: string; version: number; owner: string | null }>('cas');
    await docs.insertOne({ _id: 'x', version: 1, owner: null });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => docs.updateOne({ _id: 'x', version: 1 }, { $set: { version: 2, owner: `w${i}` } })),
    );
    expect(results.reduce((n, r) => n + r.modifiedCount, 0)).toBe(1);
  });
});
