import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { closedLoop } from './load.js';
import { linksBenchEnv } from './links-env.js';
import { round2 } from './stores.js';
import { cleanUpStack } from './cleanup.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchqr');
const total = Number(process.env['BENCH_REQUESTS'] ?? 2000);
const cold = Number(process.env['BENCH_QR_CODES'] ?? 100);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
const warmup = 50;
const env = linksBenchEnv(name);

/** Fully customized (every member the renderer draws but a logo): the expensive case the cache is for. */
const CUSTOMIZED = {
  background_color: '#fffdf5',
  dot_pattern_type: 'blob',
  dot_pattern_color: '#1a237e',
  corners: {
    corner_1: { shape: 'leaf', inner_color: '#c62828', outer_color: '#1a237e' },
    corner_2: { shape: 'extra_round', inner_color: '#c62828', outer_color: '#1a237e' },
    corner_3: { shape: 'target', inner_color: '#c62828', outer_color: '#1a237e' },
  },
  gradient: {
    style: 'linear',
    angle: 45,
    colors: [
      { color: '#1a237e', offset: 0 },
      { color: '#4a148c', offset: 100 },
    ],
    exclude_corners: true,
  },
  frame: {
    id: 'text_bottom',
    colors: { primary: '#1a237e', background: '#ffffff' },
    text: { primary: { content: 'Scan me', color: '#ffffff' } },
  },
  branding: { service_brand: true },
};

/**
 * GET /v4/qr-codes/{id}/image?format=png through links-gateway (token check, the code read from the store,
 * render or cache), three ways in one run: the same code again and again (the content-keyed cache answers),
 * a different code each request (every one rendered), and the code's JSON (`GET /v4/qr-codes/{id}`, the same
 * route work without an image) as the ceiling.
 */
async function main() {
  const processes: ManagedProcess[] = [];
  try {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const worker = startProcess('links-worker', path.join(root, 'apps/links-worker/dist/main.js'), env);
    const gateway = startProcess('links-gateway', path.join(root, 'apps/links-gateway/dist/main.js'), {
      ...env,
      PORT: String(port),
    });
    processes.push(worker, gateway);
    await waitFor(async () => (await fetch(`${origin}/readyz`).catch(() => undefined))?.ok === true, {
      what: 'links gateway',
      timeoutMs: 90_000,
      failFast: () =>
        processes
          .find((p) => p.exited())
          ?.output()
          .slice(-2000),
    });
    const key = (
      await run(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'links'], {
        env: { ...process.env, ...env },
      })
    ).stdout.trim();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const group = ((await (await fetch(`${origin}/v4/user`, { headers })).json()) as { default_group_guid: string })
      .default_group_guid;
    const ids: string[] = [];
    for (let i = 0; i <= cold; i++) {
      const response = await fetch(`${origin}/v4/qr-codes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          group_guid: group,
          destination: { long_url: `https://example.com/qr/${name}/${i}` },
          render_customizations: CUSTOMIZED,
        }),
      });
      if (response.status !== 201) throw new Error(`creating a QR code: ${response.status} ${await response.text()}`);
      ids.push(((await response.json()) as { qrcode_id: string }).qrcode_id);
    }
    const [hot, ...others] = ids as [string, ...string[]];
    const get = (p: string) => () => ({ method: 'GET' as const, path: p, headers: { authorization: `Bearer ${key}` } });
    const json = await closedLoop({
      origin,
      concurrency,
      total,
      warmup,
      maxSeconds: 300,
      request: get(`/v4/qr-codes/${hot}`),
      expectStatus: 200,
    });
    const cached = await closedLoop({
      origin,
      concurrency,
      total,
      warmup,
      maxSeconds: 300,
      request: get(`/v4/qr-codes/${hot}/image?format=png`),
      expectStatus: 200,
    });
    const rendered = await closedLoop({
      origin,
      concurrency,
      total: others.length,
      warmup: 0,
      maxSeconds: 300,
      request: (i) => ({
        method: 'GET',
        path: `/v4/qr-codes/${others[i % others.length]}/image?format=png`,
        headers: { authorization: `Bearer ${key}` },
      }),
      expectStatus: 200,
    });
    const result = {
      benchmark: 'qr-image-throughput',
      description:
        'GET /v4/qr-codes/{id}/image?format=png (1000 px, fully customized: blob dots, three corner shapes, a linear gradient, a frame with text, the brand mark) through links-gateway, ' +
        `closed loop, ${concurrency} in flight: the same code each time (answered by the cache of rendered images keyed by content), a different code each time ` +
        `(${others.length} codes, each rendered once), and the code's JSON (GET /v4/qr-codes/{id}: token, store read, no image) as the ceiling; same process, same run.`,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
      json_read: json,
      image_cached: cached,
      image_rendered: rendered,
      ratio: {
        cached_to_json_read: round2(cached.requests_per_second / json.requests_per_second),
        cached_to_rendered: round2(cached.requests_per_second / rendered.requests_per_second),
      },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/qr-image-throughput.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await cleanUpStack(env).catch((error: unknown) => console.warn(`cleaning up the run failed: ${String(error)}`));
  }
}

await main();
