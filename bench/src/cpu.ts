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

/** The most resident memory a process has had, in MiB (Linux /proc `VmHWM`; NaN elsewhere). */
export function peakRssMiB(pid: number | undefined): number {
  try {
    const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? NaN : Math.round(Number(kib) / 1024);
  } catch {
    return NaN;
  }
}
