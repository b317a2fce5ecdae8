import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import WebSocket from 'ws';
import { summarise, type LatencyStats } from './stats.js';
import { round1 } from './stores.js';
import { cleanUpStack } from './cleanup.js';
import { cpuShares, machineCpu } from './cpu.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchwatch');
const connections = Number(process.env['BENCH_WATCH_CONNECTIONS'] ?? 1000);
/**
 * Notifications measured, one at a time. The p99 of their frames is set by the slowest few notifications (each
 * is a thousand frames): with 50 it was the one slowest notification's, which moved from run to run with any
 * hiccup of the machine; 200 take it from the slowest two or three.
 */
const notifications = Number(process.env['BENCH_WATCH_NOTIFICATIONS'] ?? 200);
const slowReaders = Number(process.env['BENCH_WATCH_SLOW'] ?? 50);
const maxFramesBehind = Number(process.env['BENCH_WATCH_MAX_BEHIND'] ?? 64);
/**
 * Notifications sent before measuring. A notification runs most of the notifier's and the gateway's code once,
 * so it takes a few hundred of them for V8 to optimise it (20 left the notifier's path mostly unoptimised).
 */
const warmUp = Number(process.env['BENCH_WATCH_WARMUP'] ?? 200);
/** Node flags for the notifier and the gateway (`--cpu-prof --cpu-prof-dir=...` to profile them), space-separated. */
const nodeArgsOf = (variable: string) => (process.env[variable] ?? '').split(' ').filter(Boolean);
const env = isolatedAppEnv(name, {
  API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
  SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
  LOG_LEVEL: 'warn',
});

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Math.round(Number(/(\d+)/.exec(line)![1]) / 102.4) / 10;
}

interface Watchers {
  sockets: WebSocket[];
  /** Per notification marker: when each socket saw it. */
  arrivals: Map<string, number[]>;
  closed: Array<{ code: number; reason: string }>;
}

async function openWatchers(
  url: string,
  count: number,
  headers: Record<string, string>,
  markerOf: (frame: string) => string | undefined,
): Promise<Watchers> {
  const watchers: Watchers = { sockets: [], arrivals: new Map(), closed: [] };
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, async () => {
        const socket = new WebSocket(url, { headers, perMessageDeflate: false });
        socket.on('message', (data) => {
          const marker = markerOf(data.toString());
          if (!marker) return;
          let list = watchers.arrivals.get(marker);
          if (!list) watchers.arrivals.set(marker, (list = []));
          list.push(performance.now());
        });
        socket.on('close', (code, reason) => watchers.closed.push({ code, reason: reason.toString() }));
        await new Promise<void>((resolve, reject) => {
          socket.once('open', () => resolve());
          socket.once('error', reject);
        });
        watchers.sockets.push(socket);
      }),
    );
  }
  return watchers;
}

/** Sends one notification at a time and takes, for each, the time from the send to its frame on every socket. */
async function measure(
  watchers: Watchers,
  expected: number,
  send: (marker: string) => Promise<void>,
  count: number,
): Promise<LatencyStats & { send: LatencyStats; first_frame: LatencyStats; last_frame: LatencyStats }> {
  const latencies: number[] = [];
  const sends: number[] = [];
  // Per notification, its first and its last frame: the path to the gateway, and that plus the fan-out.
  const firsts: number[] = [];
  const lasts: number[] = [];
  let missing = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const marker = `${name}-${i}`;
    const at = performance.now();
    await send(marker);
    sends.push(performance.now() - at);
    try {
      await waitFor(() => (watchers.arrivals.get(marker)?.length ?? 0) >= expected, {
        timeoutMs: 10_000,
        intervalMs: 2,
        what: `frames of ${marker}`,
      });
    } catch {
      missing += expected - (watchers.arrivals.get(marker)?.length ?? 0);
    }
    const arrivals = watchers.arrivals.get(marker) ?? [];
    for (const t of arrivals) latencies.push(t - at);
    if (arrivals.length > 0) {
      firsts.push(Math.min(...arrivals) - at);
      lasts.push(Math.max(...arrivals) - at);
    }
    watchers.arrivals.delete(marker);
  }
  const seconds = (performance.now() - started) / 1000;
  // `send`: how long the send itself took (for the platform, the POST until its 204), inside the latency.
  return {
    ...summarise(latencies, missing, seconds),
    send: summarise(sends, 0, seconds),
    first_frame: summarise(firsts, 0, seconds),
    last_frame: summarise(lasts, 0, seconds),
  };
}

async function main() {
  const processes: ManagedProcess[] = [];
  try {
    // Baseline: the bare WebSocket server, same client, same frame size.
    const barePort = await freePort();
    const bare = startProcess('bare-ws', path.join(root, 'bench/dist/bare-ws-server.js'), { PORT: String(barePort) });
    processes.push(bare);
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${barePort}/send`, { method: 'POST', body: '{}' }).catch(() => undefined))
          ?.status === 204,
      {
        what: 'the bare server',
        timeoutMs: 30_000,
      },
    );
    const sample = JSON.stringify({
      notification: {
        id: '0190c5a8-0000-7000-8000-000000000000',
        user_id: '0190c5a8-0000-7000-8000-000000000001',
        template_id: '39b1e189-c857-4b0c-877a-511144c18516',
        targets: [],
        title: 'MARKER',
        content: 'The **build** passed.',
        icon: 'DEFAULT_ICON_OTHER',
        actions: [],
        read_at: null,
        created_at: new Date().toISOString(),
      },
      unread_count: 1,
    });
    const markerOf = (frame: string) =>
      (JSON.parse(frame) as { notification?: { title?: string } }).notification?.title;
    const bareWatchers = await openWatchers(`ws://127.0.0.1:${barePort}/watch`, connections, {}, markerOf);
    const bareCpu = machineCpu();
    const baseline = await measure(
      bareWatchers,
      connections,
      async (marker) => {
        await fetch(`http://127.0.0.1:${barePort}/send`, { method: 'POST', body: sample.replace('MARKER', marker) });
      },
      notifications,
    );
    const bareShares = cpuShares(bareCpu, machineCpu(), notifications);
    for (const s of bareWatchers.sockets) s.terminate();
    await bare.kill('SIGTERM');

    // The platform: notifier and gateway, a deployment's owner watching on `connections` sockets.
    const port = await freePort();
    // BENCH_NOTIFIER_MAIN, BENCH_NOTIFICATIONS_GATEWAY_MAIN: another build (a former commit's), to compare in the same conditions.
    const notifier = startProcess(
      'notifier',
      process.env['BENCH_NOTIFIER_MAIN'] ?? path.join(root, 'apps/notifier/dist/main.js'),
      env,
      {
        nodeArgs: nodeArgsOf('BENCH_WATCH_NOTIFIER_NODE_ARGS'),
      },
    );
    const gateway = startProcess(
      'notifications-gateway',
      process.env['BENCH_NOTIFICATIONS_GATEWAY_MAIN'] ?? path.join(root, 'apps/notifications-gateway/dist/main.js'),
      {
        ...env,
        PORT: String(port),
        WATCH_MAX_FRAMES_BEHIND: String(maxFramesBehind),
        WATCH_SLOW_GRACE_MS: '1000',
      },
      { nodeArgs: nodeArgsOf('BENCH_WATCH_GATEWAY_NODE_ARGS') },
    );
    processes.push(notifier, gateway);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true, {
      what: 'the gateway',
      timeoutMs: 60_000,
    });
    const token = (
      await run(process.execPath, [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'notifications'], {
        env: { ...process.env, ...env },
      })
    ).stdout.trim();
    const headers = { 'platform-session-token': token };
    const send = async (marker: string) => {
      const response = await fetch(`http://127.0.0.1:${port}/api/v2/notifications/custom`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ content: { title: marker, message: 'The **build** passed.' } }),
      });
      if (response.status !== 204) throw new Error(`custom notification answered ${response.status}`);
    };
    const rssIdle = rssMiB(gateway.child.pid!);
    const watchers = await openWatchers(
      `ws://127.0.0.1:${port}/api/v2/notifications/inbox/watch`,
      connections,
      headers,
      markerOf,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Warm-up, as the other benchmarks have: JIT, connection pools and the notifier's caches, not measured.
    await measure(watchers, connections, send, warmUp);
    watchers.arrivals.clear();
    const rssConnected = rssMiB(gateway.child.pid!);
    const platformCpu = machineCpu();
    const platform = await measure(watchers, connections, send, notifications);
    const platformShares = cpuShares(platformCpu, machineCpu(), notifications);

    // Slow readers: sockets that stop reading. The gateway must close them (bounded memory), the others keep up.
    const slow = await openWatchers(
      `ws://127.0.0.1:${port}/api/v2/notifications/inbox/watch`,
      slowReaders,
      headers,
      markerOf,
    );
    for (const s of slow.sockets) (s as unknown as { _socket: { pause(): void } })._socket.pause();
    const burst = maxFramesBehind * 2;
    const withSlow = await measure(watchers, connections, send, burst);
    const rssWithSlow = rssMiB(gateway.child.pid!);
    for (const s of slow.sockets) (s as unknown as { _socket: { resume(): void } })._socket.resume();
    await waitFor(() => slow.closed.length >= slowReaders, {
      timeoutMs: 30_000,
      what: 'the slow readers closed',
    }).catch(() => undefined);
    for (const s of watchers.sockets) s.terminate();

    const result = {
      benchmark: 'watch-fanout',
      description:
        `${connections} WebSocket watchers of one user on one gateway; latency from POST /api/v2/notifications/custom to the frame on each socket ` +
        "(gateway -> Kafka -> notifier -> inbox write with its event -> outbox relay -> Kafka -> every gateway's consumer -> hub -> socket), " +
        `next to a bare WebSocket server sending the same frame to ${connections} sockets of the same client in the same run. ` +
        `Then ${slowReaders} readers stop reading while ${burst} more notifications go out: the gateway closes them past ${maxFramesBehind} unread frames.`,
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
      load: {
        connections,
        notifications,
        warm_up_notifications: warmUp,
        slow_readers: slowReaders,
        max_frames_behind: maxFramesBehind,
      },
      targets: { p99_ms: 100 },
      baseline_bare_websocket: baseline,
      platform_watch: platform,
      // Who used the two cores while each was measured: CPU milliseconds per notification, by process.
      cpu_ms_per_notification: { baseline_bare_websocket: bareShares, platform_watch: platformShares },
      platform_watch_with_slow_readers: withSlow,
      slow_readers_closed: {
        count: slow.closed.length,
        codes: [...new Set(slow.closed.map((c) => c.code))],
        reason_example: slow.closed[0]?.reason ?? null,
      },
      gateway_rss_mib: { idle: rssIdle, connected: rssConnected, with_slow_readers: rssWithSlow },
      ratio: { p50: round1(platform.p50_ms / baseline.p50_ms), p99: round1(platform.p99_ms / baseline.p99_ms) },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/watch-fanout.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await cleanUpStack(env).catch((error: unknown) => console.warn(`cleaning up the run failed: ${String(error)}`));
  }
}

await main();
