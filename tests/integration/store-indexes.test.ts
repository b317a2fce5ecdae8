import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { resolveInfra, uniqueName } from '@platform/testing';

const postgresUrl = resolveInfra().storePostgresUrl;
interface Item {
  _id: string;
  environment_id: string;
  owner_id: string;
  team_id: number;
  tags: string[];
  created_at: Date;
  next_attempt_at: Date;
  version: number;
}
let mongo: MongoConnection;

// The query shapes of the platform's hot paths (claims, lookups by owner, outbox reads, pagination), as the
// patched local FerretDB pushes them down to PostgreSQL (ADR 0010). A plan that scans the table is a failure.
describe.skipIf(!postgresUrl)('the local store on PostgreSQL', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  beforeAll(async () => {
    const name = uniqueName('plans');
    mongo = await connectMongo({ url: resolveInfra().mongoUrl, dbName: name, appName: name });
    const items = mongo.db!.collection<Item>('items');
    await items.createIndex({ environment_id: 1, created_at: -1 });
    await items.createIndex({ owner_id: 1 });
    await items.createIndex({ next_attempt_at: 1 });
    await items.createIndex({ team_id: 1 });
    await items.insertMany(
      Array.from({ length: 4000 }, (_, i) => ({
        _id: `item_${String(i).padStart(5, '0')}`,
        environment_id: `env_${i % 200}`,
        owner_id: `user_${i % 500}`,
        team_id: i % 300,
        tags: [`t${i % 7}`, `t${(i + 1) % 7}`],
        created_at: new Date(now.getTime() - i * 60_000),
        next_attempt_at: new Date(now.getTime() + (i - 10) * 60_000),
        version: 1,
      })),
    );
    // Fresh tables have no statistics yet; autovacuum would gather them within a minute. Only this test's
    // tables (FerretDB keeps a database as a schema): the whole store's grows with every other run's leftovers.
    const tables = execFileSync(
      'psql',
      [
        postgresUrl!,
        '-Atc',
        `SELECT format('%I.%I', schemaname, tablename) FROM pg_tables WHERE schemaname = '${name}'`,
      ],
      { timeout: 30_000 },
    )
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean);
    expect(tables.length).toBeGreaterThan(0);
    execFileSync('psql', [postgresUrl!, '-qc', `ANALYZE ${tables.join(', ')}`], { timeout: 30_000 });
  });

  afterAll(async () => {
    await mongo?.dropDatabase().catch(() => undefined);
    await mongo?.close();
  });

  async function plan(filter: Record<string, unknown>): Promise<{ nodes: string[]; json: string }> {
    const explained = await mongo.db!.command({ explain: { find: 'items', filter }, verbosity: 'queryPlanner' });
    const json = JSON.stringify(explained['queryPlanner']);
    return { nodes: [...json.matchAll(/"Node Type":"([^"]+)"/g)].map((m) => m[1]!), json };
  }

  it.each([
    ['a document by _id', { _id: 'item_00042' }],
    ['a compare-and-set on _id and version', { _id: 'item_00042', version: 1 }],
    ['an owner lookup', { owner_id: 'user_7' }],
    ['a tenant lookup', { environment_id: 'env_3' }],
    ['a page after a cursor within a tenant', { environment_id: 'env_3', _id: { $gt: 'item_02000' } }],
    ['due work (a claim)', { next_attempt_at: { $lte: now } }],
    ['a lookup of several ids', { team_id: { $in: [1, 2, 3] } }],
    // A batch of writes names up to a thousand documents by _id (an insert's look for copies, a delete of many).
    [
      'a lookup of 500 documents by _id',
      { _id: { $in: Array.from({ length: 500 }, (_, i) => `item_${String(i * 7).padStart(5, '0')}`) } },
    ],
  ])('serves %s from an index', async (_what, filter) => {
    const { nodes, json } = await plan(filter);
    expect(nodes, json).not.toContain('Seq Scan');
    expect(
      nodes.some((n) => /Index/.test(n)),
      json,
    ).toBe(true);
  });

  // The webhook dispatcher's shape: a few ids among thousands of documents that all share the other fields'
  // values, in a table PostgreSQL has not analysed yet (a burst). The planner estimates containment in a GIN
  // index from a default selectivity, so it would read every document through the status index.
  it('looks up documents named by _id through the _id index alone, whatever else the filter says', async () => {
    const name = 'burst';
    const burst = mongo.db!.collection<{ _id: string; status: string; has_outbox: boolean; body: string }>(name);
    await burst.createIndex({ status: 1, next_attempt_at: 1 });
    await burst.createIndex({ has_outbox: 1 });
    await burst.insertMany(
      Array.from({ length: 3000 }, (_, i) => ({
        _id: `whd_${String(i).padStart(5, '0')}`,
        status: i % 10 === 0 ? 'delivered' : 'pending',
        has_outbox: false,
        body: 'x'.repeat(1500),
      })),
    );
    const ids = Array.from({ length: 40 }, (_, i) => `whd_${String(i * 7).padStart(5, '0')}`);
    const filter = { _id: { $in: ids }, status: 'pending', has_outbox: false };
    const explained = await mongo.db!.command({ explain: { find: name, filter }, verbosity: 'queryPlanner' });
    const json = JSON.stringify(explained['queryPlanner']);
    const indexes = new Set([...json.matchAll(/"Index Name":"([^"]+)"/g)].map((m) => m[1]!));
    expect([...indexes].length, json).toBeGreaterThan(0);
    for (const index of indexes) expect(index, json).toMatch(/__id__[0-9a-f]+_idx$/);
    // The other conditions still apply: four of these ids are delivered, one id is not there at all.
    expect(await burst.countDocuments(filter)).toBe(36);
    expect(await burst.countDocuments({ _id: { $in: [...ids, 'whd_missing'] }, status: 'delivered' })).toBe(4);
    expect(await burst.countDocuments({ _id: 'whd_00007', status: 'delivered' })).toBe(0);
    expect(await burst.countDocuments({ _id: { $eq: 'whd_00010' }, status: 'delivered' })).toBe(1);
  });

  it('returns exactly what MongoDB would for the pushed-down filters', async () => {
    const items = mongo.db!.collection<Item>('items');
    expect(await items.countDocuments({ environment_id: 'env_3' })).toBe(20);
    expect(await items.countDocuments({ next_attempt_at: { $lte: now } })).toBe(11);
    expect(await items.countDocuments({ next_attempt_at: { $gt: now } })).toBe(3989);
    expect(await items.countDocuments({ team_id: { $in: [1, 2, 3] } })).toBe(42);
    expect(await items.countDocuments({ tags: 't3' })).toBe(1143);
    expect(await items.countDocuments({ tags: { $lt: 't1' } })).toBe(1143); // arrays match by element
    expect(await items.countDocuments({ environment_id: 'env_3', _id: { $gt: 'item_02000' } })).toBe(10);
  });
});
