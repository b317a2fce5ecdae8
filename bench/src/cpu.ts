import { readFileSync } from 'node:fs';

/** CPU seconds a process has used so far, user and system, all threads (Linux /proc; NaN elsewhere). */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** CPU microseconds per request that processes spent between two readings. */
export function cpuPerRequest(before: number, after: number, requests: number): number {
  return Math.round(((after - before) / requests) * 1e7) / 10;
}
