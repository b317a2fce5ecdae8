import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { closedLoop } from './load.js';
import type { LatencyStats } from './stats.js';
import { benchStores, round1, round2, type Store } from './stores.js';
import { cleanUpStack } from './cleanup.js';
import { cpuPerRequest, cpuSeconds, machineCpu, machineSpent, sharesPerUnit } from './cpu.js';
import { settledStatements, statementLog, statementsPerRequest } from './statements.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('bench');
const total = Number(process.env['BENCH_REQUESTS'] ?? 2000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const warmup = Number(process.env['BENCH_WARMUP'] ?? 500);
const env = isolatedAppEnv(name, {
  API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
});

interface Measured {
  latency: LatencyStats;
  /** CPU microseconds per request of each process (user and system, all threads), after the warm-up. */
  cpu_us_per_request: { gateway: number; worker: number };
  /** Milliseconds of CPU per request of every process of the machine, in all and by the busiest kinds. */
  machine_cpu_ms_per_request: Record<string, number>;
  /** SQL statements per request on PostgreSQL (pg_stat_statements), when the store is the PostgreSQL one. */
  sql_statements_per_request?: ReturnType<typeof statementsPerRequest>;
  /** BEGIN … COMMIT pairs per request on the whole store (the benchmark is its only user while it runs). */
  sql_transactions_per_request?: number;
}

/** The platform's processes on one store, measured under the same load as the baseline. */
async function measureStore(
  store: Store,
  load: Omit<Parameters<typeof closedLoop>[0], 'origin' | 'request'>,
  extraEnv: Record<string, string> = {},
): Promise<Measured> {
  const storeEnv = { ...env, ...extraEnv, MONGO_URL: store.mongoUrl };
  const processes: ManagedProcess[] = [];
  try {
    const gatewayPort = await freePort();
    // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the gateway and the worker
    // (bench/dist/profile-top.js summarizes a profile).
    const nodeArgs = process.env['BENCH_NODE_ARGS']?.split(' ').filter(Boolean) ?? [];
    processes.push(
      startProcess('usermgmt-worker', path.join(root, 'apps/usermgmt-worker/dist/main.js'), storeEnv, { nodeArgs }),
    );
    processes.push(
      startProcess(
        'usermgmt-gateway',
        path.join(root, 'apps/usermgmt-gateway/dist/main.js'),
        { ...storeEnv, PORT: String(gatewayPort) },
        { nodeArgs },
      ),
    );
    await waitFor(async () => (await fetch(`http://127.0.0.1:${gatewayPort}/readyz`)).status < 500, {
      what: `usermgmt-gateway on ${store.name}`,
      timeoutMs: 60_000,
      failFast: () =>
        processes
          .find((p) => p.exited())
          ?.output()
          .slice(-2000),
    });
    const { stdout } = await run(
      process.execPath,
      [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'usermgmt'],
      {
        env: { ...process.env, ...storeEnv },
      },
    );
    const key = stdout.trim();
    const [worker, gateway] = processes.map((p) => p.child.pid);
    const origin = `http://127.0.0.1:${gatewayPort}`;
    // A warm-up at the same concurrency, not measured: the first requests of a fresh process compile its hot paths
    // (V8's optimizing compiler ran at 12 % of the worker's CPU in the first 2 500), which a process that serves
    // for days pays once. The CPU, statements and latency below are the steady state's.
    await closedLoop({ ...load, total: warmup, warmup: 0, origin, request: request(key, 'warm') });
    const statements = await statementLog();
    await statements?.reset();
    const before = [cpuSeconds(gateway), cpuSeconds(worker)];
    const machineBefore = machineCpu();
    const latency = await closedLoop({ ...load, warmup: 0, origin, request: request(key) });
    const machineAfter = machineCpu();
    const requests = latency.requests + latency.errors;
    const cpu = {
      gateway: cpuPerRequest(before[0]!, cpuSeconds(gateway), requests),
      worker: cpuPerRequest(before[1]!, cpuSeconds(worker), requests),
    };
    // Every process of the machine (the store, Kafka, Redis and the load client too), while the load ran.
    const spent = machineSpent(machineBefore, machineAfter);
    const machine = {
      total: Math.round(([...spent.values()].reduce((a, b) => a + b, 0) / requests) * 1e5) / 100,
      ...sharesPerUnit(spent, requests),
    };
    const shapes = await settledStatements(statements, name);
    const transactions = await statements?.transactions();
    return {
      latency,
      cpu_us_per_request: cpu,
      machine_cpu_ms_per_request: machine,
      ...(shapes.length > 0 ? { sql_statements_per_request: statementsPerRequest(shapes, requests) } : {}),
      ...(transactions !== undefined
        ? { sql_transactions_per_request: Math.round((transactions / requests) * 100) / 100 }
        : {}),
    };
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await cleanUpStack(storeEnv).catch((error: unknown) =>
      console.warn(`cleaning up the run failed: ${String(error)}`),
    );
  }
}

const request =
  (key: string, phase = 'run') =>
  (i: number) => ({
    method: 'POST' as const,
    path: '/user_management/users',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ email: `bench-${phase}-${i}-${name}@example.com` }),
  });

async function main() {
  const stores = benchStores();
  const load = { concurrency, total, warmup: 50, maxSeconds: 120, expectStatus: 201 };
  const barePort = await freePort();
  const bare = startProcess('bare-fastify', path.join(root, 'bench/dist/bare-server.js'), { PORT: String(barePort) });
  let baseline: LatencyStats;
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${barePort}/x`)).status < 500, {
      what: 'bare server',
      timeoutMs: 30_000,
    });
    baseline = await closedLoop({ ...load, origin: `http://127.0.0.1:${barePort}`, request: request('bare') });
  } finally {
    await bare.kill('SIGTERM');
  }
  const measured: Record<string, Measured> = {};
  for (const store of stores) measured[store.name] = await measureStore(store, load);
  // The same path with every trace recorded (the default before issue 41), in the same run.
  const allTraced = await measureStore(stores[0]!, load, { TRACE_SAMPLE_RATIO: '1' });
  const byStore = Object.fromEntries(Object.entries(measured).map(([k, v]) => [k, v.latency]));
  const platform = byStore[stores[0]!.name]!;
  const versusBaseline = (p: LatencyStats) => ({
    p50: round1(p.p50_ms / baseline.p50_ms),
    p99: round1(p.p99_ms / baseline.p99_ms),
    throughput: round1(baseline.requests_per_second / p.requests_per_second),
  });
  const other = stores[1] ? byStore[stores[1].name] : undefined;
  const result = {
    benchmark: 'usermgmt-roundtrip',
    description:
      'POST /user_management/users through gateway -> Kafka -> worker (MongoDB write, outbox) -> Redis reply, next to a bare Fastify handler answering the same request, same client, same run; ' +
      `on each store of the run (${stores.map((s) => s.name).join(', ')}). ratio: the first store against the baseline (how many times slower); store_ratio: the first store against the second.`,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
    load: { concurrency, requests: total, warmup_requests: warmup },
    targets: { requests_per_second: 300, p99_ms: 150 },
    baseline_bare_fastify: baseline,
    platform_roundtrip: platform,
    by_store: byStore,
    ratio: versusBaseline(platform),
    ratio_by_store: Object.fromEntries(Object.entries(byStore).map(([k, v]) => [k, versusBaseline(v)])),
    cpu_us_per_request: measured[stores[0]!.name]!.cpu_us_per_request,
    machine_cpu_ms_per_request: measured[stores[0]!.name]!.machine_cpu_ms_per_request,
    sql_statements_per_request: measured[stores[0]!.name]!.sql_statements_per_request ?? null,
    sql_statements_target: 4,
    sql_transactions_per_request: measured[stores[0]!.name]!.sql_transactions_per_request ?? null,
    cpu_targets_us: { gateway: 1000, worker: 2000 },
    every_trace_recorded: {
      note: 'the first store with TRACE_SAMPLE_RATIO=1 (every span recorded, as before sampling)',
      latency: allTraced.latency,
      cpu_us_per_request: allTraced.cpu_us_per_request,
    },
    store_ratio: other
      ? {
          throughput: round2(platform.requests_per_second / other.requests_per_second),
          p99: round2(platform.p99_ms / other.p99_ms),
        }
      : undefined,
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/usermgmt-roundtrip.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
