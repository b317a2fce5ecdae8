/**
 * The stores a benchmark compares: the local default (FerretDB on PostgreSQL) and, when bench.sh started it,
 * the former default (FerretDB on SQLite), both with the platform's patch, in the same run.
 * BENCH_STORES is `name=mongodb-url,name=mongodb-url`; without it, the one store of MONGO_URL.
 */
export interface Store {
  name: string;
  mongoUrl: string;
}

export function benchStores(): Store[] {
  const listed = process.env['BENCH_STORES'];
  if (!listed) return [{ name: 'default', mongoUrl: process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:27017' }];
  return listed.split(',').map((entry) => {
    const at = entry.indexOf('=');
    if (at < 1) throw new Error(`BENCH_STORES entry "${entry}" is not name=mongodb-url`);
    return { name: entry.slice(0, at), mongoUrl: entry.slice(at + 1) };
  });
}

export const round1 = (n: number) => Math.round(n * 10) / 10;
export const round2 = (n: number) => Math.round(n * 100) / 100;
