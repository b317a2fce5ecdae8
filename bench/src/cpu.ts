import { readFileSync, readdirSync } from 'node:fs';

/** A `/proc/<pid>/stat` line's command and CPU seconds (user and system, all threads). */
function readStat(pid: number | string): { comm: string; seconds: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command is in parentheses and may itself hold spaces and parentheses.
  const close = stat.lastIndexOf(') ');
  const fields = stat.slice(close + 2).split(' ');
  return { comm: stat.slice(stat.indexOf('(') + 1, close), seconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}

/** CPU seconds a process has used so far, user and system, all threads (Linux /proc; NaN elsewhere). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    return readStat(pid!).seconds;
  } catch {
    return NaN;
  }
}

/** CPU microseconds per request that processes spent between two readings. */
export function cpuPerRequest(before: number, after: number, requests: number): number {
  return Math.round(((after - before) / requests) * 1e7) / 10;
}

/** The most resident memory a process has had, in MiB (Linux /proc `VmHWM`; NaN elsewhere). */
export function peakRssMiB(pid: number | undefined): number {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? NaN : Math.round(Number(kib) / 1024);
  } catch {
    return NaN;
  }
}

/** A process's name for a CPU report: a node script's file name, else its command (`java`, `postgres`, ...). */
function processName(pid: string, comm: string): string {
  if (comm !== 'node' && comm !== 'MainThread') return comm;
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const script = args.slice(1).find((a) => !a.startsWith('-'));
    if (!script) return 'node';
    const parts = script.split('/');
    const file = parts.at(-1)!;
    // apps/<name>/dist/main.js is named by its app.
    return file === 'main.js' && parts.length >= 3 ? parts.at(-3)! : file;
  } catch {
    return comm;
  }
}

/** CPU seconds so far of every process on the machine, by pid, with each one's name for a report. */
export type MachineCpu = Map<string, { name: string; seconds: number }>;

/** CPU seconds of every process on the machine so far, by pid (Linux /proc; empty elsewhere). */
export function machineCpu(): MachineCpu {
  const out: MachineCpu = new Map();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const { comm, seconds } = readStat(pid);
      out.set(pid, { name: processName(pid, comm), seconds });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/** CPU seconds each kind of process spent between two `machineCpu()` readings, added into `into` if given. */
export function machineSpent(
  before: MachineCpu,
  after: MachineCpu,
  into = new Map<string, number>(),
): Map<string, number> {
  for (const [pid, { name, seconds }] of after) {
    const spent = seconds - (before.get(pid)?.seconds ?? 0);
    if (spent > 0) into.set(name, (into.get(name) ?? 0) + spent);
  }
  return into;
}

/** Milliseconds of CPU per unit of work (µs per request when `units` is in thousands), the busiest first. */
export function sharesPerUnit(spent: Map<string, number>, units: number, top = 8): Record<string, number> {
  const sorted = [...spent].sort((a, b) => b[1] - a[1]).slice(0, top);
  return Object.fromEntries(sorted.map(([name, seconds]) => [name, Math.round((seconds / units) * 1e5) / 100]));
}

/**
 * Milliseconds of CPU each kind of process spent between two `machineCpu()` readings, per unit of work (a
 * notification, a request), the busiest first: who shared the cores with the process measured.
 */
export function cpuShares(before: MachineCpu, after: MachineCpu, units: number, top = 8): Record<string, number> {
  return sharesPerUnit(machineSpent(before, after), units, top);
}
