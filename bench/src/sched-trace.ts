import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** The difference between CLOCK_MONOTONIC (perf's `-k CLOCK_MONOTONIC`, process.hrtime) and performance.now(), in ms. */
export const monotonicOffsetMs = Number(process.hrtime.bigint()) / 1e6 - performance.now();

/** A process whose collections (`--trace-gc` in its output) and pid go with the trace. */
export interface TracedProcess {
  label: string;
  pid: number | undefined;
  output?: () => string;
}

/**
 * A scheduler trace of every core (`perf sched record -a -k CLOCK_MONOTONIC`, as root or with
 * perf_event_paranoid ≤ 1) and this process's own collections, until stopped; then written to `dir` with the
 * slow requests the caller gathered on the same clock, for `sched-episodes` to tell what ran on the cores while
 * they waited.
 */
export function startSchedTrace(dir: string) {
  mkdirSync(dir, { recursive: true });
  const perf = spawn('perf', ['sched', 'record', '-a', '-k', 'CLOCK_MONOTONIC', '-o', path.join(dir, 'sched.data')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => perf.once('exit', () => resolve()));
  const clientGc: Array<[number, number, number]> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      clientGc.push([
        entry.startTime + monotonicOffsetMs,
        entry.duration,
        (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0,
      ]);
  });
  observer.observe({ entryTypes: ['gc'] });
  // perf takes a moment to start recording: each half-rate phase opens with its unmeasured warm-up second.
  return {
    async stop(processes: TracedProcess[], slow: Record<string, Array<[number, number]>>): Promise<void> {
      perf.kill('SIGINT');
      await exited;
      observer.disconnect();
      for (const p of processes) {
        if (!p.output || p.pid === undefined) continue;
        // The process's start (clock ticks since boot, field 22 of /proc/<pid>/stat): --trace-gc counts from it.
        const startTicks = readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
        writeFileSync(path.join(dir, `${p.label}.out`), `start_ticks ${startTicks}\n${p.output()}`);
      }
      const pids = Object.fromEntries([['client', process.pid], ...processes.map((p) => [p.label, p.pid])]);
      writeFileSync(path.join(dir, 'slow.json'), JSON.stringify({ pids, ...slow, client_gc: clientGc }));
    },
  };
}
