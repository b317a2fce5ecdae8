import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, getPriority, loadavg, setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { cpuPerRequest, cpuSeconds, machineCpu, machineSpent, sharesPerUnit } from './cpu.js';
import { closedLoop, openLoop } from './load.js';
import { summarise, type LatencyStats } from './stats.js';
import { round1, round2 } from './stores.js';
import { cleanUpStack } from './cleanup.js';
import { startSchedTrace } from './sched-trace.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchredir');
const total = Number(process.env['BENCH_REDIRECTS'] ?? 1_000_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 6);
const maxSeconds = Number(process.env['BENCH_MAX_SECONDS'] ?? 4);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const openRounds = Number(process.env['BENCH_OPEN_ROUNDS'] ?? 4);
const openSeconds = Number(process.env['BENCH_OPEN_SECONDS'] ?? 5);
const openWarmupSeconds = Number(process.env['BENCH_OPEN_WARMUP_SECONDS'] ?? 1);
/**
 * The load client's scheduling priority (nice, -20..19; below 0 needs the privilege): on a machine whose cores the
 * servers, Kafka and the worker share with the client, a client descheduled for tens of milliseconds sends late
 * and reads late, and its latencies blame the server. Unset: left as it is.
 */
const clientNice =
  process.env['BENCH_CLIENT_NICE'] === undefined ? undefined : Number(process.env['BENCH_CLIENT_NICE']);
/**
 * A directory for a scheduler trace of the half-rate phases and each server's requests slower than 10 ms on the
 * same clock (sched-trace.ts; `node bench/dist/sched-episodes.js <dir>` reads them). Unset: no trace.
 */
const schedDir = process.env['BENCH_SCHED_DIR'];
const DOMAIN = 'sho.rt';
// What a browser sends with a click (the redirector records both and classifies the user agent), to either server.
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
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
    failFast: () =>
      processes
        .find((p) => p.exited())
        ?.output()
        .slice(-2000),
  });

/** ShortlinkCreated events the redirector has handled (its links.events consumer, from /metrics). */
async function eventsSeen(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let seen = 0;
  for (const match of text.matchAll(
    /^platform_messaging_processed_total\{[^}]*type="[^"]*ShortlinkCreated"[^}]*\} (\d+)/gm,
  ))
    seen += Number(match[1]);
  return seen;
}

/** Links the redirector read from the store: on a request's path (a miss), and in the background (a refresh). */
async function storeReads(metricsUrl: string): Promise<{ missed: number; refreshed: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (metric: string) => Number(new RegExp(`^${metric}(?:\\{[^}]*\\})? (\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  const refreshed = value('platform_links_store_refreshes_total');
  return { missed: value('platform_links_store_reads_total') - refreshed, refreshed };
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

type Request = (i: number) => { method: 'GET'; path: string; headers?: Record<string, string> };

/** One of the two servers measured, and the CPU its maximum-rate phases cost, added up over the rounds. */
interface Server {
  origin: string;
  pid: number | undefined;
  request: Request;
  /** Other processes whose CPU per request is reported too (the consumers of what the server produces). */
  others: Record<string, number | undefined>;
  spent: {
    requests: number;
    server: number;
    main: number;
    client: number;
    others: number[];
    machine: Map<string, number>;
  };
  rounds: LatencyStats[];
  halfRate: {
    phases: Array<
      LatencyStats & { client_loop_delay_p99_ms: number; client_loop_delay_max_ms: number; seconds_p99_ms: number[] }
    >;
    samples: number[];
    errors: number;
    seconds: number;
    slow: Array<[number, number]>;
  };
}

function server(
  origin: string,
  pid: number | undefined,
  request: Request,
  others: Record<string, number | undefined> = {},
): Server {
  return {
    origin,
    pid,
    request,
    others,
    spent: { requests: 0, server: 0, main: 0, client: 0, others: Object.keys(others).map(() => 0), machine: new Map() },
    rounds: [],
    halfRate: { phases: [], samples: [], errors: 0, seconds: 0, slow: [] },
  };
}

/** One closed-loop phase at the maximum rate, its CPU (the server's, this client's, every process's) added up. */
async function maxPhase(target: Server, warmup = 0): Promise<LatencyStats> {
  const others = Object.values(target.others);
  const before = {
    server: cpuSeconds(target.pid),
    main: mainThreadSeconds(target.pid),
    client: process.cpuUsage(),
    others: others.map(cpuSeconds),
    machine: machineCpu(),
  };
  const max = await closedLoop({
    origin: target.origin,
    concurrency,
    total,
    warmup,
    maxSeconds,
    request: target.request,
    expectStatus: 301,
  });
  const client = process.cpuUsage(before.client);
  const { spent } = target;
  spent.requests += max.requests + max.errors + warmup;
  spent.server += cpuSeconds(target.pid) - before.server;
  spent.main += mainThreadSeconds(target.pid) - before.main;
  spent.client += (client.user + client.system) / 1e6;
  others.forEach((pid, i) => (spent.others[i]! += cpuSeconds(pid) - before.others[i]!));
  machineSpent(before.machine, machineCpu(), spent.machine);
  target.rounds.push(max);
  return max;
}

/** One open-loop phase at `rate`: its latencies pooled with the server's other phases at that rate. */
async function halfRatePhase(target: Server, rate: number): Promise<void> {
  const phase = await openLoop({
    origin: target.origin,
    rate,
    seconds: openSeconds,
    warmupSeconds: openWarmupSeconds,
    connections: concurrency * 2,
    request: target.request,
    expectStatus: 301,
    samples: target.halfRate.samples,
    slow: schedDir === undefined ? undefined : { overMs: 10, into: target.halfRate.slow },
  });
  target.halfRate.phases.push(phase);
  target.halfRate.errors += phase.errors;
  target.halfRate.seconds += phase.seconds;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** What a server did over its phases: the median maximum, CPU per request over all of them, the pooled half-rate latency. */
function report(target: Server) {
  const { spent } = target;
  const rates = target.rounds.map((r) => r.requests_per_second);
  const server = cpuPerRequest(0, spent.server, spent.requests);
  const main = cpuPerRequest(0, spent.main, spent.requests);
  return {
    max: {
      median_requests_per_second: round1(median(rates)),
      rounds_requests_per_second: rates.map(round1),
      p50_ms: round2(median(target.rounds.map((r) => r.p50_ms))),
      p99_ms: round2(median(target.rounds.map((r) => r.p99_ms))),
      requests: target.rounds.reduce((n, r) => n + r.requests, 0),
      errors: target.rounds.reduce((n, r) => n + r.errors, 0),
    },
    cpu_us_per_request: {
      server,
      // The server's main thread answers requests; its other threads are the click publisher's, V8's and libuv's.
      server_main_thread: main,
      server_other_threads: Math.round((server - main) * 10) / 10,
      client: cpuPerRequest(0, spent.client, spent.requests),
      ...Object.fromEntries(
        Object.keys(target.others).map((name, i) => [name, cpuPerRequest(0, spent.others[i]!, spent.requests)]),
      ),
    },
    // Every process of the machine, µs per request (milliseconds per thousand): who else took the two cores.
    machine_us_per_request: sharesPerUnit(spent.machine, spent.requests / 1000),
    half_rate: {
      ...summarise(target.halfRate.samples, target.halfRate.errors, target.halfRate.seconds),
      phases_p99_ms: target.halfRate.phases.map((p) => p.p99_ms),
      // The p99 of this client's own event loop delay in each phase: what of a p99 the client itself adds.
      phases_client_loop_delay_p99_ms: target.halfRate.phases.map((p) => p.client_loop_delay_p99_ms),
      phases_client_loop_delay_max_ms: target.halfRate.phases.map((p) => p.client_loop_delay_max_ms),
      // Each phase's p99 second by second: whether the tail is spread out or one stall.
      phases_seconds_p99_ms: target.halfRate.phases.map((p) => p.seconds_p99_ms),
    },
  };
}

/** Redirects answered and clicks published so far: a publisher that keeps up is at most a batch or two behind. */
async function clickProgress(metricsUrl: string) {
  const text = await (await fetch(metricsUrl)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  const answered = value(/^platform_links_redirects_total\{[^}]*http_response_status_code="301"[^}]*\} (\d+)/m);
  const published = value(/^platform_links_clicks_published_total(?:\{[^}]*\})? (\d+)/m);
  return { redirects_answered: answered, clicks_published: published, clicks_waiting: answered - published };
}

/**
 * Node's arguments for a server process: BENCH_SERVERS_NODE_ARGS for all four (the bare server, links-worker,
 * links-gateway, the redirector), by default one V8 helper thread each as `npm start` runs the apps
 * (scripts/start.sh; '' for V8's four), then the process's own variable's.
 */
function nodeArgs(own?: string): string[] {
  return [process.env['BENCH_SERVERS_NODE_ARGS'] ?? '--v8-pool-size=1', own && process.env[own]].flatMap(
    (args) => args?.split(' ').filter(Boolean) ?? [],
  );
}

async function main() {
  const processes: ManagedProcess[] = [];
  try {
    // Both servers run side by side for the whole run, and take turns: the machine's speed moves from one
    // minute to the next on these shared cores, so one phase each would compare two different machines.
    const barePort = await freePort();
    const bare = startProcess(
      'bare-redirect',
      path.join(root, 'bench/dist/bare-redirect-server.js'),
      { PORT: String(barePort) },
      { nodeArgs: nodeArgs() },
    );
    processes.push(bare);
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${barePort}/h1`, { redirect: 'manual' }).catch(() => undefined))?.status === 301,
      { what: 'bare server', timeoutMs: 30_000 },
    );

    const [gatewayPort, redirectorPort] = [await freePort(), await freePort()];
    // BENCH_LINKS_WORKER_MAIN: another build of links-worker (it consumes every click on the same cores).
    // BENCH_LINKS_WORKER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof-lw' profiles it.
    const linksWorker = startProcess(
      'links-worker',
      process.env['BENCH_LINKS_WORKER_MAIN'] ?? path.join(root, 'apps/links-worker/dist/main.js'),
      env,
      {
        nodeArgs: nodeArgs('BENCH_LINKS_WORKER_NODE_ARGS'),
      },
    );
    processes.push(linksWorker);
    const gateway = startProcess(
      'links-gateway',
      path.join(root, 'apps/links-gateway/dist/main.js'),
      { ...env, PORT: String(gatewayPort) },
      { nodeArgs: nodeArgs() },
    );
    processes.push(gateway);
    // BENCH_REDIRECTOR_MAIN: another build of the redirector (a former commit's), to compare in the same conditions.
    const redirector = startProcess(
      'redirector',
      process.env['BENCH_REDIRECTOR_MAIN'] ?? path.join(root, 'apps/redirector/dist/main.js'),
      {
        ...env,
        PORT: String(redirectorPort),
        CLICK_SPOOL_DIR: mkdtempSync(path.join(tmpdir(), 'bench-spool-')),
        // As deployed: 1 % of redirects traced (the default REDIRECT_TRACE_RATIO), request logs off, LOG_LEVEL=warn.
        // BENCH_REDIRECTOR_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the redirector under this load.
      },
      { nodeArgs: nodeArgs('BENCH_REDIRECTOR_NODE_ARGS') },
    );
    processes.push(redirector);
    await ready(`http://127.0.0.1:${gatewayPort}/readyz`, 'links-gateway', processes);
    await ready(`http://127.0.0.1:${redirectorPort}/readyz`, 'redirector', processes);
    const token = (
      await run(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'links'], {
        env: { ...process.env, ...env },
      })
    ).stdout.trim();
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
    await waitFor(async () => (await eventsSeen(`http://127.0.0.1:${redirectorPort}/metrics`)) >= hashes.length, {
      what: 'the redirector to see every ShortlinkCreated',
      timeoutMs: 120_000,
    });
    const redirect = (i: number) => ({
      method: 'GET' as const,
      path: `/${hashes[Math.abs(i) % hashes.length]}`,
      headers: { ...BROWSER, host: DOMAIN },
    });
    await closedLoop({
      origin: `http://127.0.0.1:${redirectorPort}`,
      concurrency: 8,
      total: hashes.length,
      warmup: 0,
      maxSeconds: 120,
      request: redirect,
      expectStatus: 301,
    });
    const readsBefore = await storeReads(`http://127.0.0.1:${redirectorPort}/metrics`);

    const baseline = server(`http://127.0.0.1:${barePort}`, bare.child.pid, (i) => ({
      method: 'GET',
      path: `/h${Math.abs(i) % 1000}`,
      headers: BROWSER,
    }));
    // links-worker consumes links.clicks (first-redirect marks, webhook fan-out): its CPU per click is reported beside the redirector's.
    const platform = server(`http://127.0.0.1:${redirectorPort}`, redirector.child.pid, redirect, {
      links_worker: linksWorker.child.pid,
    });
    // Warm-up: each server's hot path compiled (2 000 requests one at a time, then a second under load), not measured.
    for (const target of [baseline, platform]) {
      await closedLoop({
        origin: target.origin,
        concurrency,
        total,
        warmup: 2000,
        maxSeconds: 1,
        request: target.request,
        expectStatus: 301,
      });
    }
    // Maximum rate: rounds of one closed-loop phase each, the first server alternating (bare first, then the
    // redirector first, ...), so that a drift of the machine falls on both alike.
    const perRound: Array<{
      first: 'bare' | 'redirector';
      bare_rps: number;
      redirector_rps: number;
      share: number;
      clicks_waiting: number;
    }> = [];
    for (let r = 0; r < rounds; r++) {
      const first = r % 2 === 0 ? 'bare' : 'redirector';
      const order = first === 'bare' ? [baseline, platform] : [platform, baseline];
      let clicksWaiting = 0;
      for (const target of order) {
        await maxPhase(target);
        if (target === platform)
          clicksWaiting = (await clickProgress(`http://127.0.0.1:${redirectorPort}/metrics`)).clicks_waiting;
      }
      const [b, p] = [baseline.rounds.at(-1)!.requests_per_second, platform.rounds.at(-1)!.requests_per_second];
      perRound.push({
        first,
        bare_rps: round1(b),
        redirector_rps: round1(p),
        share: round2(p / b),
        clicks_waiting: clicksWaiting,
      });
    }
    const at_end_of_max = await clickProgress(`http://127.0.0.1:${redirectorPort}/metrics`);
    // Latency at half of each server's median maximum, open loop, in alternating phases too; p99 over them all.
    const rates = [baseline, platform].map((t) =>
      Math.max(1, Math.floor(median(t.rounds.map((x) => x.requests_per_second)) / 2)),
    );
    // Only here: at the maximum rate the client is what the bare server's rate is limited by.
    const niceBefore = getPriority();
    if (clientNice !== undefined) setPriority(clientNice);
    const halfRateNice = getPriority();
    const trace = schedDir === undefined ? undefined : startSchedTrace(schedDir);
    for (let r = 0; r < openRounds; r++) {
      const order: Array<[Server, number]> =
        r % 2 === 0
          ? [
              [baseline, rates[0]!],
              [platform, rates[1]!],
            ]
          : [
              [platform, rates[1]!],
              [baseline, rates[0]!],
            ];
      for (const [target, rate] of order) await halfRatePhase(target, rate);
    }
    // With BENCH_*_NODE_ARGS='--trace-gc', the outputs of links-worker and the redirector carry their collections.
    await trace?.stop(
      [
        { label: 'bare', pid: bare.child.pid },
        { label: 'redirector', pid: redirector.child.pid, output: redirector.output },
        { label: 'links-worker', pid: linksWorker.child.pid, output: linksWorker.output },
        // Idle here, yet its collections after making the links took the cores in one caught stall.
        { label: 'links-gateway', pid: gateway.child.pid },
      ],
      { bare: baseline.halfRate.slow, redirector: platform.halfRate.slow },
    );
    setPriority(niceBefore);
    const readsAfter = await storeReads(`http://127.0.0.1:${redirectorPort}/metrics`);
    const metricsText = await (await fetch(`http://127.0.0.1:${redirectorPort}/metrics`)).text();
    const counter = (metric: string) =>
      Number(new RegExp(`^${metric}(?:\\{[^}]*\\})? (\\d+(?:\\.\\d+)?)`, 'm').exec(metricsText)?.[1] ?? NaN);
    const [bareReport, platformReport] = [report(baseline), report(platform)];

    const result = {
      benchmark: 'redirect-throughput',
      description:
        `GET /<hash> on the redirector (Host: ${DOMAIN}, 1 000 links, cache warm, a browser user agent and referrer, a ShortlinkClicked per redirect into the click buffer and on to Kafka) ` +
        'next to a bare Fastify server answering the same 301 from an in-memory map, same client, same run, both running throughout and taking turns: ' +
        `the maximum rate in ${rounds} rounds of a ${maxSeconds} s closed-loop phase each (${concurrency} connections, after 2 000 warm-up requests each), the first server alternating, ` +
        `the share of the ceiling the median of the rounds' shares; then the latency at half of each server's median maximum in ${openRounds} alternating open-loop phases of ${openSeconds} s each ` +
        `(each after ${openWarmupSeconds} s at the same rate on its new connections, not counted; latency from each request's scheduled start), the percentiles over all of a server's phases.`,
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model,
        node: process.version,
        load_average: loadavg().map(round2),
        client_nice_at_half_rate: halfRateNice,
      },
      builds: {
        redirector: process.env['BENCH_REDIRECTOR_MAIN'] ?? 'this checkout',
        links_worker: process.env['BENCH_LINKS_WORKER_MAIN'] ?? 'this checkout',
      },
      node_args: {
        servers: nodeArgs(),
        redirector: nodeArgs('BENCH_REDIRECTOR_NODE_ARGS'),
        links_worker: nodeArgs('BENCH_LINKS_WORKER_NODE_ARGS'),
        NODE_OPTIONS: process.env['NODE_OPTIONS'] ?? '',
      },
      targets: { throughput_share_of_ceiling: 0.6, p99_ms_at_half_rate: 10 },
      rounds: perRound,
      baseline_bare_fastify: bareReport,
      platform_redirector: { ...platformReport, at_end_of_max },
      clicks: {
        published: counter('platform_links_clicks_published_total'),
        dropped: counter('platform_links_clicks_dropped_total'),
      },
      // Cache misses while measuring (after the warm-up): 0 means every redirect was answered from memory. Links
      // in use are read again in the background near the end of their cache life (LINK_CACHE_TTL_MS).
      store_reads_while_measuring: {
        on_request_path: readsAfter.missed - readsBefore.missed,
        in_background: readsAfter.refreshed - readsBefore.refreshed,
      },
      ratio: {
        throughput_share_of_ceiling: round2(median(perRound.map((r) => r.share))),
        throughput_share_of_ceiling_range: [
          round2(Math.min(...perRound.map((r) => r.share))),
          round2(Math.max(...perRound.map((r) => r.share))),
        ],
        p99_at_half_rate: round1(platformReport.half_rate.p99_ms / bareReport.half_rate.p99_ms),
        server_cpu_per_request: round2(platformReport.cpu_us_per_request.server / bareReport.cpu_us_per_request.server),
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
