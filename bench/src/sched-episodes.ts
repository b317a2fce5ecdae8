/**
 * What ran on the cores while a server's slow requests waited: reads a directory written by a benchmark run with
 * BENCH_SCHED_DIR (sched-trace.ts), groups the requests slower than `minMs` into episodes (requests whose waits
 * overlap) and, for the worst, adds up each thread's time on the cores within the episode, the longest wait for
 * a core, and the collections of the client and of the processes traced with --trace-gc.
 *
 *   node bench/dist/sched-episodes.js <dir> [server: redirector|bare] [minMs: 15] [episodes: 8]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, server = 'redirector', minMs = '15', top = '8'] = process.argv.slice(2);
if (!dir) throw new Error('usage: sched-episodes <dir> [server] [minMs] [episodes]');
const slow = JSON.parse(readFileSync(path.join(dir, 'slow.json'), 'utf8')) as Record<string, unknown> & {
  pids: Record<string, number | undefined>;
  client_gc: Array<[number, number, number]>;
};
const labelOf = new Map(Object.entries(slow.pids).map(([label, pid]) => [String(pid), label]));

/** One stretch of a thread on a core: [core, start ms, end ms, thread label, its wait for the core before it, ms]. */
type Run = [number, number, number, string, number];
const runs: Run[] = [];
const timehist = execFileSync('perf', ['sched', 'timehist', '-i', path.join(dir, 'sched.data')], {
  maxBuffer: 1 << 30,
  stdio: ['ignore', 'pipe', 'ignore'],
}).toString();
for (const line of timehist.split('\n')) {
  // "  84466.995867 [0001]  node[22864/22841]   8.564   0.000   1.549": switched out at, core, task[tid/pid], wait, delay, run.
  const m = /^\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\[(\d+)(?:\/(\d+))?\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)/.exec(line);
  if (!m) continue;
  const [end, core, comm, tid, pid = tid, , delay, ran] = [
    Number(m[1]) * 1000,
    Number(m[2]),
    m[3]!,
    m[4]!,
    m[5],
    m[6],
    Number(m[7]),
    Number(m[8]),
  ];
  const owner = labelOf.get(pid);
  // A process's main thread has its pid for a thread id; "/t" is any other of its threads (GC helpers, workers).
  const label = owner ? `${owner}${tid === pid ? '' : '/t'}` : comm.startsWith('<idle>') ? 'idle' : `${comm}(${pid})`;
  runs.push([core, end - ran, end, label, delay]);
}

/** Collections from --trace-gc lines ("[pid:isolate]  1234 ms: Scavenge ..., 1.2 / 0.0 ms"), on CLOCK_MONOTONIC, roughly (± the process's start). */
function collections(label: string): Array<[number, number, string]> {
  const file = path.join(dir!, `${label}.out`);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const startMs = Number(/^start_ticks (\d+)/.exec(text)?.[1] ?? NaN) * 10;
  return [...text.matchAll(/\s(\d+) ms: (Scavenge|Mark-Compact|Mark-sweep)[^,]*, ([\d.]+) \/ [\d.]+ ms/g)].map((m) => [
    startMs + Number(m[1]),
    Number(m[3]),
    m[2]!,
  ]);
}
const traced = Object.fromEntries(Object.keys(slow.pids).map((label) => [label, collections(label)]));

const requests = ((slow[server] as Array<[number, number]> | undefined) ?? [])
  .filter(([, latency]) => latency >= Number(minMs))
  .sort((a, b) => a[0] - b[0]);
const episodes: Array<{ start: number; end: number; requests: number; worst: number }> = [];
for (const [due, latency] of requests) {
  const last = episodes.at(-1);
  if (last && due <= last.end) {
    last.end = Math.max(last.end, due + latency);
    last.requests++;
    last.worst = Math.max(last.worst, latency);
  } else episodes.push({ start: due, end: due + latency, requests: 1, worst: latency });
}
const all = (slow[server] as unknown[] | undefined)?.length ?? 0;
console.log(
  `${server}: ${all} requests over 10 ms, ${requests.length} of ${minMs} ms or more, in ${episodes.length} episodes`,
);
for (const episode of [...episodes].sort((a, b) => b.worst - a.worst).slice(0, Number(top))) {
  const onCores = new Map<string, number>();
  let longestWait: [number, string] = [0, ''];
  for (const [, start, end, label, delay] of runs) {
    if (end < episode.start || start > episode.end) continue;
    onCores.set(label, (onCores.get(label) ?? 0) + Math.min(end, episode.end) - Math.max(start, episode.start));
    if (delay > longestWait[0]) longestWait = [delay, label];
  }
  const busiest = [...onCores]
    .filter(([label]) => label !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8);
  const near = (list: Array<[number, number, string | number]>) =>
    list
      .filter(([at, took]) => at + took >= episode.start - 150 && at <= episode.end)
      .map(
        ([at, took, kind]) =>
          `${kind === 1 ? 'minor' : kind === 4 ? 'major' : kind} ${Math.round(at - episode.start)} ms for ${took.toFixed(1)}`,
      );
  console.log(
    `\n+${(episode.start / 1000).toFixed(3)} s: ${Math.round(episode.end - episode.start)} ms, ${episode.requests} requests, the slowest ${episode.worst.toFixed(1)} ms; ` +
      `longest wait for a core ${longestWait[0].toFixed(1)} ms (${longestWait[1]})`,
  );
  console.log(`  on the cores (ms): ${busiest.map(([label, ms]) => `${label} ${ms.toFixed(1)}`).join(', ')}`);
  console.log(`  client collections: ${near(slow.client_gc).join('; ') || '-'}`);
  for (const [label, list] of Object.entries(traced))
    if (list.length > 0) console.log(`  ${label} collections: ${near(list).join('; ') || '-'}`);
}
