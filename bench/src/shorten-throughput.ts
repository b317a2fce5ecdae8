import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { cpuPerRequest, cpuSeconds, machineCpu, machineSpent, sharesPerUnit } from './cpu.js';
import { closedLoop } from './load.js';
import { linksBenchEnv } from './links-env.js';
import type { LatencyStats } from './stats.js';
import { settledStatements, statementLog, statementsPerRequest } from './statements.js';
import { round2 } from './stores.js';
import { cleanUpStack } from './cleanup.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchshort');
const total = Number(process.env['BENCH_REQUESTS'] ?? 2000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
/**
 * Requests made first, not measured, on each pipeline: a fresh process compiles its hot paths over its first
 * thousand or so requests (50 left the links processes' CPU per link half as high again in a 2 000-request run).
 */
const warmup = Number(process.env['BENCH_WARMUP'] ?? 1000);
const env = linksBenchEnv(name);

interface Pipeline {
  label: string;
  worker: string;
  gateway: string;
  keyService: string;
  request: (
    key: string,
  ) => (i: number) => { method: 'POST'; path: string; headers: Record<string, string>; body: string };
  expectStatus: number;
}

/** A new user each request: the user-management round trip (gateway, Kafka, worker, reply over Redis). */
const usermgmt: Pipeline = {
  label: 'usermgmt',
  worker: 'apps/usermgmt-worker/dist/main.js',
  gateway: 'apps/usermgmt-gateway/dist/main.js',
  keyService: 'usermgmt',
  request: (key) => (i) => ({
    method: 'POST',
    path: '/user_management/users',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ email: `bench-${i}-${name}@example.com` }),
  }),
  expectStatus: 201,
};

/** A new short link each request (a long URL the group has not shortened yet): the same path for links. */
const shorten: Pipeline = {
  label: 'shorten',
  worker: 'apps/links-worker/dist/main.js',
  gateway: 'apps/links-gateway/dist/main.js',
  keyService: 'links',
  request: (key) => (i) => ({
    method: 'POST',
    path: '/v4/shorten',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ long_url: `https://example.com/bench/${name}/${i}?utm_source=bench` }),
  }),
  expectStatus: 201,
};

/** One pipeline's processes, the closed loop against its gateway, and the CPU its two processes spent per request. */
async function measure(pipeline: Pipeline): Promise<
  LatencyStats & {
    cpu_us_per_request: { gateway: number; worker: number };
    machine_cpu_ms_per_request: Record<string, number>;
    sql_statements_per_request?: ReturnType<typeof statementsPerRequest>;
  }
> {
  const processes: ManagedProcess[] = [];
  try {
    const port = await freePort();
    // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles both pipelines' gateways and workers.
    const nodeArgs = process.env['BENCH_NODE_ARGS']?.split(' ').filter(Boolean) ?? [];
    const worker = startProcess(`${pipeline.label}-worker`, path.join(root, pipeline.worker), env, { nodeArgs });
    const gateway = startProcess(
      `${pipeline.label}-gateway`,
      path.join(root, pipeline.gateway),
      { ...env, PORT: String(port) },
      { nodeArgs },
    );
    processes.push(worker, gateway);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true, {
      what: `${pipeline.label} gateway`,
      timeoutMs: 90_000,
      failFast: () =>
        processes
          .find((p) => p.exited())
          ?.output()
          .slice(-2000),
    });
    const key = (
      await run(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', pipeline.keyService], {
        env: { ...process.env, ...env },
      })
    ).stdout.trim();
    const load = {
      origin: `http://127.0.0.1:${port}`,
      concurrency,
      maxSeconds: 300,
      expectStatus: pipeline.expectStatus,
    };
    // The warm-up is not measured: a fresh process compiles its hot paths during its first requests.
    const warm = pipeline.request(key);
    await closedLoop({ ...load, total: warmup, warmup: 0, request: (i) => warm(total + i) });
    const statements = await statementLog();
    await statements?.reset();
    const before = { gateway: cpuSeconds(gateway.child.pid), worker: cpuSeconds(worker.child.pid) };
    const machineBefore = machineCpu();
    const stats = await closedLoop({ ...load, total, warmup: 0, request: pipeline.request(key) });
    const spent = machineSpent(machineBefore, machineCpu());
    const handled = stats.requests + stats.errors;
    const shapes = await settledStatements(statements, name);
    return {
      ...stats,
      cpu_us_per_request: {
        gateway: cpuPerRequest(before.gateway, cpuSeconds(gateway.child.pid), handled),
        worker: cpuPerRequest(before.worker, cpuSeconds(worker.child.pid), handled),
      },
      // Every process of the machine (the store, Kafka, Redis and the load client too), while the load ran.
      machine_cpu_ms_per_request: {
        total: Math.round(([...spent.values()].reduce((a, b) => a + b, 0) / handled) * 1e5) / 100,
        ...sharesPerUnit(spent, handled),
      },
      ...(shapes.length > 0 ? { sql_statements_per_request: statementsPerRequest(shapes, handled) } : {}),
    };
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await cleanUpStack(env).catch((error: unknown) => console.warn(`cleaning up the run failed: ${String(error)}`));
  }
}

async function main() {
  const roundtrip = await measure(usermgmt);
  const links = await measure(shorten);
  const result = {
    benchmark: 'shorten-throughput',
    description:
      'New short links per second: POST /v4/shorten with a long URL the group has not shortened yet, through links-gateway -> Kafka -> links-worker ' +
      '(the link, its ShortlinkCreated in the outbox) -> Redis reply, next to the user-management round trip (POST /user_management/users through ' +
      `usermgmt-gateway -> Kafka -> usermgmt-worker -> Redis reply) on the same store, same client, same run: closed loop, ${concurrency} in flight, ` +
      `${total} requests after ${warmup} warm-up ones each. cpu_us_per_request: CPU time of the gateway and worker processes per request (the store's and the broker's are not in it); ` +
      "machine_cpu_ms_per_request: every process of the machine; sql_statements_per_request: what FerretDB ran on PostgreSQL (pg_stat_statements), reads of the relay's sweep included.",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
    store: process.env['MONGO_URL'] ?? 'mongodb://127.0.0.1:27017',
    load: { concurrency, requests: total },
    usermgmt_roundtrip: roundtrip,
    shorten: links,
    ratio: {
      links_per_second_to_users_per_second: round2(links.requests_per_second / roundtrip.requests_per_second),
      p50: round2(links.p50_ms / roundtrip.p50_ms),
      p99: round2(links.p99_ms / roundtrip.p99_ms),
    },
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/shorten-throughput.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
