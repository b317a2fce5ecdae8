import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One query shape of PostgreSQL's statement log (pg_stat_statements), with how often it ran. */
export interface StatementShape {
  calls: number;
  /** The statement with FerretDB's table names replaced by the collections they hold. */
  statement: string;
}

/**
 * Counts the SQL statements FerretDB runs on PostgreSQL for one MongoDB database (a schema of the `ferretdb`
 * database), from pg_stat_statements (deploy/local/postgres.sh preloads it). Undefined when the store is not
 * that PostgreSQL (the SQLite store, or a server without the extension).
 */
export async function statementLog(): Promise<
  | {
      reset(): Promise<void>;
      read(schema: string): Promise<StatementShape[]>;
      /** Explicit transactions (BEGIN) since the reset, of every database: each costs two more round trips. */
      transactions(): Promise<number>;
    }
  | undefined
> {
  const psql = async (sql: string) =>
    (
      await run(
        'psql',
        [
          '-h',
          process.env['PLATFORM_HOST'] ?? '127.0.0.1',
          '-p',
          process.env['PLATFORM_POSTGRES_PORT'] ?? '15432',
          '-U',
          'platform',
          '-d',
          'ferretdb',
          '-AtX',
          '-F',
          '\t',
          '-c',
          sql,
        ],
        { timeout: 30_000 },
      )
    ).stdout;
  try {
    await psql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT count(*) FROM pg_stat_statements');
  } catch {
    return undefined;
  }
  return {
    async reset() {
      await psql('SELECT pg_stat_statements_reset()');
    },
    async transactions() {
      return Number(await psql(`SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query ILIKE 'begin%'`));
    },
    async read(schema) {
      if (!/^[a-z0-9_]+$/.test(schema)) throw new Error(`unexpected schema name ${schema}`);
      const tables = new Map<string, string>();
      const metadata = await psql(
        `SELECT _jsonb->>'_id', _jsonb->>'table' FROM "${schema}"._ferretdb_database_metadata`,
      ).catch(() => '');
      for (const line of metadata.split('\n').filter(Boolean)) {
        const [collection, table] = line.split('\t');
        if (collection && table) tables.set(table, collection);
      }
      const rows = await psql(
        `SELECT calls, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements ` +
          `WHERE query LIKE '%"${schema}".%' AND query NOT LIKE '%_ferretdb_database_metadata%' ORDER BY calls DESC`,
      );
      return rows
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const tab = line.indexOf('\t');
          let statement = line.slice(tab + 1);
          for (const [table, collection] of tables) statement = statement.replaceAll(`"${table}"`, collection);
          return { calls: Number(line.slice(0, tab)), statement: statement.replaceAll(`"${schema}".`, '') };
        });
    },
  };
}

/**
 * The schema's statements once their count has settled: the relay's last acknowledgements (and a fan-out) land
 * after the last answer. Writes only are compared, since the relay's sweep reads every second whatever happens.
 * BENCH_SHOW_STATEMENTS=1 prints the busiest.
 */
export async function settledStatements(
  statements: Awaited<ReturnType<typeof statementLog>>,
  schema: string,
): Promise<StatementShape[]> {
  let shapes = (await statements?.read(schema)) ?? [];
  const writes = (list: StatementShape[]) =>
    list.filter((x) => !x.statement.startsWith('SELECT')).reduce((n, x) => n + x.calls, 0);
  for (let settled = 0, i = 0; statements && settled < 2 && i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = await statements.read(schema);
    settled = writes(again) === writes(shapes) ? settled + 1 : 0;
    shapes = again;
  }
  if (process.env['BENCH_SHOW_STATEMENTS']) console.log(shapes.slice(0, 20));
  return shapes;
}

/** Statements per request, in all and by collection and kind (SELECT, INSERT, UPDATE, DELETE). */
export function statementsPerRequest(shapes: StatementShape[], requests: number) {
  const per = (n: number) => Math.round((n / Math.max(1, requests)) * 100) / 100;
  const byKind: Record<string, number> = {};
  for (const s of shapes) {
    const kind = s.statement.trimStart().split(' ')[0]!.toUpperCase();
    const table = /(?:FROM|INTO|UPDATE)\s+([a-z0-9_]+)/i.exec(s.statement)?.[1] ?? '?';
    const label = `${kind} ${table}`;
    byKind[label] = (byKind[label] ?? 0) + s.calls;
  }
  return {
    total: per(shapes.reduce((sum, s) => sum + s.calls, 0)),
    by_statement: Object.fromEntries(
      Object.entries(byKind)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, per(v)]),
    ),
  };
}
