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
  ])('serves %s from an index', async (_what, filter) => {
    const { nodes, json } = await plan(filter);
    expect(nodes, json).not.toContain('Seq Scan');
    expect(
      nodes.some((n) => /Index/.test(n)),
      json,
    ).toBe(true);
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
