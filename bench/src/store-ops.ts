import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { connectMongo } from '@platform/mongo';
import { uniqueName } from '@platform/testing';
import { summarise, type LatencyStats } from './stats.js';
import { benchStores, round2, type Store } from './stores.js';

/**
 * The store operations the platform's hot paths are made of, through one MongoDB driver client with 16 in
 * flight, on every store of BENCH_STORES (PostgreSQL and SQLite backends of the patched FerretDB), same run.
 */
const root = path.resolve(import.meta.dirname, '../..');
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const seconds = Number(process.env['BENCH_STORE_SECONDS'] ?? 4);
const documents = 2000;
const counters = 200;

type Db = NonNullable<Awaited<ReturnType<typeof connectMongo>>['db']>;
type Operation = (db: Db, i: number) => Promise<unknown>;

const operations: Record<string, { setup: (db: Db) => Promise<void>; run: Operation }> = {
  find_one_by_id: {
    setup: seedItems,
    run: (db, i) => db.collection('items').findOne({ _id: itemId(i) } as never),
  },
  find_one_and_update_id_version: {
    setup: seedItems,
    // A compare-and-set as the platform's versioned writes do it, on the version this client last saw.
    run: async (db, i) => {
      const items = db.collection<{ _id: string; version: number }>('items');
      const _id = itemId(i);
      const swapped = await items.findOneAndUpdate(
        { _id, version: versions.get(_id) ?? 0 },
        { $inc: { version: 1 } },
        { returnDocument: 'after' },
      );
      versions.set(_id, swapped?.version ?? (await items.findOne({ _id }))!.version);
    },
  },
  find_by_indexed_field: {
    setup: seedItems,
    run: (db, i) =>
      db
        .collection('items')
        .find({ owner_id: `owner_${i % (documents / 30)}` })
        .toArray(),
  },
  upsert_inc_counter: {
    setup: async () => undefined,
    run: (db, i) =>
      db.collection('counters').updateOne({ _id: `c${i % counters}` } as never, { $inc: { n: 1 } }, { upsert: true }),
  },
};

const versions = new Map<string, number>();
const itemId = (i: number) => `item_${String(i % documents).padStart(5, '0')}`;

async function seedItems(db: Db): Promise<void> {
  const items = db.collection('items');
  if ((await items.estimatedDocumentCount()) >= documents) return;
  await items.createIndex({ owner_id: 1 });
  const batch = Array.from({ length: documents }, (_, i) => ({
    _id: itemId(i),
    owner_id: `owner_${i % (documents / 30)}`,
    version: 0,
    payload: 'x'.repeat(200),
  }));
  for (let i = 0; i < batch.length; i += 500) await items.insertMany(batch.slice(i, i + 500) as never[]);
}

async function measure(db: Db, run: Operation): Promise<LatencyStats> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const began = performance.now();
  const deadline = began + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const i = next++;
        const t0 = performance.now();
        try {
          await run(db, i * 7919);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  return summarise(latencies, errors, (performance.now() - began) / 1000);
}

async function benchStore(store: Store): Promise<Record<string, LatencyStats>> {
  const name = uniqueName(`benchstore_${store.name}`);
  const mongo = await connectMongo({ url: store.mongoUrl, dbName: name, appName: name });
  const results: Record<string, LatencyStats> = {};
  versions.clear();
  try {
    for (const [op, { setup, run }] of Object.entries(operations)) {
      await setup(mongo.db!);
      results[op] = await measure(mongo.db!, run);
    }
  } finally {
    await mongo.dropDatabase().catch(() => undefined);
    await mongo.close();
  }
  return results;
}

async function main() {
  const stores = benchStores();
  const byStore: Record<string, Record<string, LatencyStats>> = {};
  for (const store of stores) byStore[store.name] = await benchStore(store);
  const [first, second] = stores.map((s) => byStore[s.name]!);
  const ratios =
    first && second
      ? Object.fromEntries(
          Object.keys(operations).map((op) => [
            op,
            {
              throughput: round2(first[op]!.requests_per_second / second[op]!.requests_per_second),
              p99: round2(first[op]!.p99_ms / second[op]!.p99_ms),
            },
          ]),
        )
      : undefined;
  const result = {
    benchmark: 'store-ops',
    description:
      `Store operations of the hot paths through one MongoDB driver client, ${concurrency} in flight, ${seconds} s each: ` +
      `findOne by _id; findOneAndUpdate on {_id, version} (a compare-and-set on the version last seen); find by an indexed ` +
      `non-_id field (30 documents); upsert $inc on ${counters} counters. Same run on every store; ratios are ` +
      `${stores[0]?.name} over ${stores[1]?.name ?? '-'} (throughput > 1 and p99 < 1 favour the first).`,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
    stores: Object.fromEntries(stores.map((s) => [s.name, s.mongoUrl])),
    results: byStore,
    ratios,
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/store-ops.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
