import { connectMongo } from '@platform/mongo';
import { leftBehind, type LeftBehind } from './left-behind.js';
import { parseUniqueName } from './wait.js';

/**
 * Drops the databases that test stacks and benchmarks of earlier runs left behind (a process killed before its
 * cleanup, a benchmark's million clicks), or with `{ run }` those of one test run, at its end. On FerretDB each is a
 * PostgreSQL schema: left alone they pile up run after run, and whatever walks the whole store (an ANALYZE, a
 * backup) slows with them. Without `run`, only those older than `maxAgeMs` (3 h, by the time in their name) go, so
 * a run in progress elsewhere on the machine keeps its own.
 */
export async function dropStaleTestDatabases(mongoUrl: string, which: LeftBehind = {}): Promise<number> {
  const mongo = await connectMongo({ url: mongoUrl, dbName: 'admin', appName: 'test-cleanup' });
  try {
    const isLeft = leftBehind(which);
    const { databases } = await mongo.db!.admin().listDatabases({ nameOnly: true });
    // A test stack's or benchmark's database is named by uniqueName.
    const stale = databases.map((d) => d.name).filter((name) => isLeft(parseUniqueName(name)));
    for (const name of stale) await mongo.useDb(name, { useCache: false }).dropDatabase();
    return stale.length;
  } finally {
    await mongo.close();
  }
}
