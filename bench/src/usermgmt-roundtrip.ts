import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { closedLoop } from './load.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('bench');
const total = Number(process.env['BENCH_REQUESTS'] ?? 2000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const env = isolatedAppEnv(name, {
  API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
});


async function main() {
  const processes: ManagedProcess[] = [];
  try {
    const [gatewayPort, barePort] = [await freePort(), await freePort()];
    processes.push(startProcess('usermgmt-worker', path.join(root, 'apps/usermgmt-worker/dist/main.js'), env));
    processes.push(startProcess('usermgmt-gateway', path.join(root, 'apps/usermgmt-gateway/dist/main.js'), { ...env, PORT: String(gatewayPort) }));
    processes.push(startProcess('bare-fastify', path.join(root, 'bench/dist/bare-server.js'), { PORT: String(barePort) }));
    const crashed = () => processes.find((p) => p.exited())?.output().slice(-2000);
    for (const port of [gatewayPort, barePort]) {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/${port === barePort ? 'x' : 'readyz'}`)).status < 500, {
        what: `port ${port}`,
        timeoutMs: 60_000,
        failFast: crashed,
      });
    }
    const { stdout } = await run(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'usermgmt'], {
      env: { ...process.env, ...env },
    });
    const key = stdout.trim();
    const request = (i: number) => ({
      method: 'POST' as const,
      path: '/user_management/users',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ email: `bench-${i}-${name}@example.com` }),
    });
    const load = { concurrency, total, warmup: 50, maxSeconds: 120, request, expectStatus: 201 };
    const baseline = await closedLoop({ ...load, origin: `http://127.0.0.1:${barePort}` });
    const platform = await closedLoop({ ...load, origin: `http://127.0.0.1:${gatewayPort}` });
    const result = {
      benchmark: 'usermgmt-roundtrip',
      description:
        'POST /user_management/users through gateway -> Kafka -> worker (MongoDB write, outbox) -> Redis reply, next to a bare Fastify handler answering the same request, same client, same run.',
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
      load: { concurrency, requests: total },
      baseline_bare_fastify: baseline,
      platform_roundtrip: platform,
      ratio: {
        p50: Math.round((platform.p50_ms / baseline.p50_ms) * 10) / 10,
        p99: Math.round((platform.p99_ms / baseline.p99_ms) * 10) / 10,
        throughput: Math.round((baseline.requests_per_second / platform.requests_per_second) * 10) / 10,
      },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/usermgmt-roundtrip.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  }
}

await main();
