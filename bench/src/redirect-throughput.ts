import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { closedLoop, openLoop } from './load.js';
import { round1, round2 } from './stores.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchredir');
const total = Number(process.env['BENCH_REDIRECTS'] ?? 20_000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const openSeconds = Number(process.env['BENCH_OPEN_SECONDS'] ?? 10);
const DOMAIN = 'sho.rt';
const env = isolatedAppEnv(name, {
  API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
  LINKS_DEFAULT_DOMAIN: DOMAIN,
  LOG_LEVEL: 'warn',
});

const ready = (url: string, what: string, processes: ManagedProcess[]) =>
  waitFor(async () => (await fetch(url).catch(() => undefined))?.ok === true, {
    what,
    timeoutMs: 60_000,
    failFast: () => processes.find((p) => p.exited())?.output().slice(-2000),
  });

/** The redirect path at its maximum (closed loop), then at half that rate (open loop), for one server. */
async function measure(origin: string, request: (i: number) => { method: 'GET'; path: string; headers?: Record<string, string> }) {
  const max = await closedLoop({ origin, concurrency, total, warmup: 500, maxSeconds: 60, request, expectStatus: 301 });
  const half = await openLoop({ origin, rate: Math.max(1, Math.floor(max.requests_per_second / 2)), seconds: openSeconds, connections: concurrency * 2, request, expectStatus: 301 });
  return { max, half_rate: half };
}

async function main() {
  const processes: ManagedProcess[] = [];
  try {
    const barePort = await freePort();
    const bare = startProcess('bare-redirect', path.join(root, 'bench/dist/bare-redirect-server.js'), { PORT: String(barePort) });
    processes.push(bare);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${barePort}/h1`, { redirect: 'manual' }).catch(() => undefined))?.status === 301, { what: 'bare server', timeoutMs: 30_000 });
    const baseline = await measure(`http://127.0.0.1:${barePort}`, (i) => ({ method: 'GET', path: `/h${Math.abs(i) % 1000}` }));
    await bare.kill('SIGTERM');

    const [gatewayPort, redirectorPort] = [await freePort(), await freePort()];
    processes.push(startProcess('links-worker', path.join(root, 'apps/links-worker/dist/main.js'), env));
    processes.push(startProcess('links-gateway', path.join(root, 'apps/links-gateway/dist/main.js'), { ...env, PORT: String(gatewayPort) }));
    const redirector = startProcess('redirector', path.join(root, 'apps/redirector/dist/main.js'), {
      ...env,
      PORT: String(redirectorPort),
      CLICK_SPOOL_DIR: mkdtempSync(path.join(tmpdir(), 'bench-spool-')),
      // As deployed: the hot path traces 1 % of redirects (the standard OpenTelemetry sampler variables).
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.01',
    });
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
    const platform = await measure(`http://127.0.0.1:${redirectorPort}`, (i) => ({ method: 'GET', path: `/${hashes[Math.abs(i) % hashes.length]}`, headers: { host: DOMAIN } }));
    const metricsText = await (await fetch(`http://127.0.0.1:${redirectorPort}/metrics`)).text();
    const counter = (metric: string) => Number(new RegExp(`^${metric}(?:\\{[^}]*\\})? (\\d+(?:\\.\\d+)?)`, 'm').exec(metricsText)?.[1] ?? NaN);

    const result = {
      benchmark: 'redirect-throughput',
      description:
        `GET /<hash> on the redirector (Host: ${DOMAIN}, 1 000 links, cache warm, a ShortlinkClicked per redirect into the click buffer and on to Kafka) ` +
        'next to a bare Fastify server answering the same 301 from an in-memory map, same client, same run: the maximum rate (closed loop, ' +
        `${concurrency} connections, ${total} requests) and the latency at half that rate (open loop, ${openSeconds} s, from each request's scheduled start).`,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
      targets: { throughput_share_of_ceiling: 0.6, p99_ms_at_half_rate: 10 },
      baseline_bare_fastify: baseline,
      platform_redirector: platform,
      clicks: { published: counter('platform_links_clicks_published_total'), dropped: counter('platform_links_clicks_dropped_total') },
      ratio: {
        throughput_share_of_ceiling: round2(platform.max.requests_per_second / baseline.max.requests_per_second),
        p99_at_half_rate: round1(platform.half_rate.p99_ms / baseline.half_rate.p99_ms),
      },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/redirect-throughput.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  }
}

await main();
