import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { cpuPerRequest, cpuSeconds, cpuShares, machineCpu } from './cpu.js';
import { closedLoop, openLoop } from './load.js';
import { round1, round2 } from './stores.js';
import { cleanUpStack } from './cleanup.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchredir');
const total = Number(process.env['BENCH_REDIRECTS'] ?? 1_000_000);
const maxSeconds = Number(process.env['BENCH_MAX_SECONDS'] ?? 8);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const openSeconds = Number(process.env['BENCH_OPEN_SECONDS'] ?? 10);
const DOMAIN = 'sho.rt';
// What a browser sends with a click (the redirector records both and classifies the user agent), to either server.
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  referer: 'https://news.example.com/articles/2026/spring',
};
const env = isolatedAppEnv(name, {
  API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
  LINKS_DEFAULT_DOMAIN: DOMAIN,
  LOG_LEVEL: 'warn',
  // The 1 000 links are made in seconds: past the platform limits' 1 000 calls a minute otherwise.
  LINKS_HOURLY_LIMIT: '100000000',
});

const ready = (url: string, what: string, processes: ManagedProcess[]) =>
  waitFor(async () => (await fetch(url).catch(() => undefined))?.ok === true, {
    what,
    timeoutMs: 60_000,
    failFast: () => processes.find((p) => p.exited())?.output().slice(-2000),
  });

/** ShortlinkCreated events the redirector has handled (its links.events consumer, from /metrics). */
async function eventsSeen(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let seen = 0;
  for (const match of text.matchAll(/^platform_messaging_processed_total\{[^}]*type="[^"]*ShortlinkCreated"[^}]*\} (\d+)/gm)) seen += Number(match[1]);
  return seen;
}

async function storeReads(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(/^platform_links_store_reads_total(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? NaN);
}

/** CPU seconds of a process's main thread (its thread id is the process id), user and system. */
function mainThreadSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * The redirect path at its maximum (closed loop), then at half that rate (open loop), for one server; with the
 * CPU time the server process and this client spent per request at the maximum (steadier than a rate on a
 * machine whose two cores are shared).
 */
async function measure<T>(
  origin: string,
  pid: number | undefined,
  request: (i: number) => { method: 'GET'; path: string; headers?: Record<string, string> },
  atEndOfMax?: () => Promise<T>,
  /** Other processes whose CPU per request is reported too (the consumers of what the server produces). */
  others: Record<string, number | undefined> = {},
) {
  const warmup = 2000;
  const before = { server: cpuSeconds(pid), main: mainThreadSeconds(pid), client: process.cpuUsage(), others: Object.values(others).map(cpuSeconds), machine: machineCpu() };
  const max = await closedLoop({ origin, concurrency, total, warmup, maxSeconds, request, expectStatus: 301 });
  const client = process.cpuUsage(before.client);
  const handled = max.requests + max.errors + warmup;
  // Every process of the machine, µs per request (milliseconds per thousand): who else took the two cores.
  const machine_us_per_request = cpuShares(before.machine, machineCpu(), handled / 1000);
  const server = cpuPerRequest(before.server, cpuSeconds(pid), handled);
  // The server's main thread answers requests; its other threads are the click publisher's, V8's and libuv's.
  const main = cpuPerRequest(before.main, mainThreadSeconds(pid), handled);
  const cpu_us_per_request = {
    server,
    server_main_thread: main,
    server_other_threads: Math.round((server - main) * 10) / 10,
    client: cpuPerRequest(0, (client.user + client.system) / 1e6, handled),
    ...Object.fromEntries(Object.entries(others).map(([name, other], i) => [name, cpuPerRequest(before.others[i]!, cpuSeconds(other), handled)])),
  };
  const at_end_of_max = await atEndOfMax?.();
  const half = await openLoop({ origin, rate: Math.max(1, Math.floor(max.requests_per_second / 2)), seconds: openSeconds, connections: concurrency * 2, request, expectStatus: 301 });
  return { max, cpu_us_per_request, machine_us_per_request, at_end_of_max, half_rate: half };
}

/** Redirects answered and clicks published so far: a publisher that keeps up is at most a batch or two behind. */
async function clickProgress(metricsUrl: string) {
  const text = await (await fetch(metricsUrl)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  const answered = value(/^platform_links_redirects_total\{[^}]*http_response_status_code="301"[^}]*\} (\d+)/m);
  const published = value(/^platform_links_clicks_published_total(?:\{[^}]*\})? (\d+)/m);
  return { redirects_answered: answered, clicks_published: published, clicks_waiting: answered - published };
}

async function main() {
  const processes: ManagedProcess[] = [];
  try {
    const barePort = await freePort();
    const bare = startProcess('bare-redirect', path.join(root, 'bench/dist/bare-redirect-server.js'), { PORT: String(barePort) });
    processes.push(bare);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${barePort}/h1`, { redirect: 'manual' }).catch(() => undefined))?.status === 301, { what: 'bare server', timeoutMs: 30_000 });
    const baseline = await measure(`http://127.0.0.1:${barePort}`, bare.child.pid, (i) => ({ method: 'GET', path: `/h${Math.abs(i) % 1000}`, headers: BROWSER }));
    await bare.kill('SIGTERM');

    const [gatewayPort, redirectorPort] = [await freePort(), await freePort()];
    // BENCH_LINKS_WORKER_MAIN: another build of links-worker (it consumes every click on the same cores).
    // BENCH_LINKS_WORKER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof-lw' profiles it.
    const linksWorker = startProcess('links-worker', process.env['BENCH_LINKS_WORKER_MAIN'] ?? path.join(root, 'apps/links-worker/dist/main.js'), env, {
      nodeArgs: process.env['BENCH_LINKS_WORKER_NODE_ARGS']?.split(' ').filter(Boolean) ?? [],
    });
    processes.push(linksWorker);
    processes.push(startProcess('links-gateway', path.join(root, 'apps/links-gateway/dist/main.js'), { ...env, PORT: String(gatewayPort) }));
    // BENCH_REDIRECTOR_MAIN: another build of the redirector (a former commit's), to compare in the same conditions.
    const redirector = startProcess('redirector', process.env['BENCH_REDIRECTOR_MAIN'] ?? path.join(root, 'apps/redirector/dist/main.js'), {
      ...env,
      PORT: String(redirectorPort),
      CLICK_SPOOL_DIR: mkdtempSync(path.join(tmpdir(), 'bench-spool-')),
      // As deployed: 1 % of redirects traced (the default REDIRECT_TRACE_RATIO), request logs off, LOG_LEVEL=warn.
      // BENCH_REDIRECTOR_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the redirector under this load.
    }, { nodeArgs: process.env['BENCH_REDIRECTOR_NODE_ARGS']?.split(' ').filter(Boolean) ?? [] });
    processes.push(redirector);
    await ready(`http://127.0.0.1:${gatewayPort}/readyz`, 'links-gateway', processes);
    await ready(`http://127.0.0.1:${redirectorPort}/readyz`, 'redirector', processes);
    const token = (await run(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'links'], { env: { ...process.env, ...env } })).stdout.trim();
    const hashes: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const response = await fetch(`http://127.0.0.1:${gatewayPort}/v4/shorten`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ long_url: `https://example.com/landing/${i}` }),
      });
      hashes.push(((await response.json()) as { id: string }).id.split('/')[1]!);
    }
    // Every ShortlinkCreated evicts its link in the redirector: wait for all 1 000 before warming the cache.
    await waitFor(async () => (await eventsSeen(`http://127.0.0.1:${redirectorPort}/metrics`)) >= hashes.length, { what: 'the redirector to see every ShortlinkCreated', timeoutMs: 120_000 });
    const redirect = (i: number) => ({ method: 'GET' as const, path: `/${hashes[Math.abs(i) % hashes.length]}`, headers: { ...BROWSER, host: DOMAIN } });
    await closedLoop({ origin: `http://127.0.0.1:${redirectorPort}`, concurrency: 8, total: hashes.length, warmup: 0, maxSeconds: 120, request: redirect, expectStatus: 301 });
    const readsBefore = await storeReads(`http://127.0.0.1:${redirectorPort}/metrics`);
    // links-worker consumes links.clicks (first-redirect marks, webhook fan-out): its CPU per click is reported beside the redirector's.
    const platform = await measure(`http://127.0.0.1:${redirectorPort}`, redirector.child.pid, redirect, () => clickProgress(`http://127.0.0.1:${redirectorPort}/metrics`), { links_worker: linksWorker.child.pid });
    const metricsText = await (await fetch(`http://127.0.0.1:${redirectorPort}/metrics`)).text();
    const counter = (metric: string) => Number(new RegExp(`^${metric}(?:\\{[^}]*\\})? (\\d+(?:\\.\\d+)?)`, 'm').exec(metricsText)?.[1] ?? NaN);

    const result = {
      benchmark: 'redirect-throughput',
      description:
        `GET /<hash> on the redirector (Host: ${DOMAIN}, 1 000 links, cache warm, a browser user agent and referrer, a ShortlinkClicked per redirect into the click buffer and on to Kafka) ` +
        'next to a bare Fastify server answering the same 301 from an in-memory map, same client, same run: the maximum rate (closed loop, ' +
        `${concurrency} connections, ${maxSeconds} s after 2 000 warm-up requests) and the latency at half that rate (open loop, ${openSeconds} s, from each request's scheduled start).`,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
      builds: { redirector: process.env['BENCH_REDIRECTOR_MAIN'] ?? 'this checkout', links_worker: process.env['BENCH_LINKS_WORKER_MAIN'] ?? 'this checkout' },
      targets: { throughput_share_of_ceiling: 0.6, p99_ms_at_half_rate: 10 },
      baseline_bare_fastify: baseline,
      platform_redirector: platform,
      clicks: { published: counter('platform_links_clicks_published_total'), dropped: counter('platform_links_clicks_dropped_total') },
      // Cache misses while measuring (after the warm-up): 0 means every redirect was answered from memory.
      store_reads_while_measuring: counter('platform_links_store_reads_total') - readsBefore,
      ratio: {
        throughput_share_of_ceiling: round2(platform.max.requests_per_second / baseline.max.requests_per_second),
        p99_at_half_rate: round1(platform.half_rate.p99_ms / baseline.half_rate.p99_ms),
        server_cpu_per_request: round2(platform.cpu_us_per_request.server / baseline.cpu_us_per_request.server),
      },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/redirect-throughput.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await cleanUpStack(env).catch((error: unknown) => console.warn(`cleaning up the run failed: ${String(error)}`));
  }
}

await main();
