import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { RawHttpPool, type RawRequest } from './raw-http.js';
import { monotonicOffsetMs } from './sched-trace.js';
import { summarise, type LatencyStats } from './stats.js';

/**
 * Closed-loop load: `concurrency` workers each send one request at a time over a keep-alive pool until
 * `total` requests are done. Bounded in count and time, loopback only.
 */
export async function closedLoop(options: {
  origin: string;
  concurrency: number;
  total: number;
  warmup: number;
  maxSeconds: number;
  request: (i: number) => { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
  expectStatus: number;
}): Promise<LatencyStats> {
  const pool = new Pool(options.origin, { connections: options.concurrency, pipelining: 1 });
  let next = 0;
  const latencies: number[] = [];
  let errors = 0;
  const one = async (i: number, record: boolean) => {
    const req = options.request(i);
    const started = performance.now();
    try {
      const response = await pool.request({
        ...req,
        body: req.body ?? null,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
      await response.body.text();
      if (response.statusCode !== options.expectStatus) errors++;
      else if (record) latencies.push(performance.now() - started);
    } catch {
      errors++;
    }
  };
  for (let i = 0; i < options.warmup; i++) await one(-1 - i, false);
  const deadline = Date.now() + options.maxSeconds * 1000;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.total && Date.now() < deadline) await one(next++, true);
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  await pool.close();
  return summarise(latencies, errors, seconds);
}

/**
 * Open-loop load: requests start at a fixed `rate` per second for `seconds`, whatever the answers do (a
 * closed loop hides queueing: a slow answer delays the next request). Latency is from each request's
 * scheduled start.
 */
export async function openLoop(options: {
  origin: string;
  rate: number;
  seconds: number;
  connections: number;
  request: (i: number) => RawRequest;
  expectStatus: number;
  /** Each answered request's latency (ms) is appended here too: phases of one server pooled into one p99. */
  samples?: number[];
  /**
   * Seconds sent at `rate` before the measured `seconds`, on the same connections, not counted: the phase's
   * connections opened and the servers' first answers on them, which a steady rate does not pay again.
   */
  warmupSeconds?: number;
  /**
   * Requests slower than `overMs` are appended here as [due time on CLOCK_MONOTONIC in ms, latency in ms]: the
   * clock `perf sched record -k CLOCK_MONOTONIC` stamps its events with, to see what ran while they waited.
   */
  slow?: { overMs: number; into: Array<[number, number]> };
}): Promise<
  LatencyStats & { client_loop_delay_p99_ms: number; client_loop_delay_max_ms: number; seconds_p99_ms: number[] }
> {
  // How late this client's own event loop ran: a late loop sends late and reads answers late, which the
  // latencies would blame on the server.
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const warmup = Math.round(options.rate * (options.warmupSeconds ?? 0));
  const total = warmup + Math.round(options.rate * options.seconds);
  // Nothing per request outlives its answer (no array of promises): a client that keeps a few hundred
  // thousand settled promises alive pays major collections that show up as the server's tail latency.
  const latencies = new Float64Array(total);
  /** The second of the measured phase each answered request was due in. */
  const dueSecond = new Uint16Array(total);
  let answered = 0;
  let errors = 0;
  let outstanding = 0;
  let allDone: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (allDone = resolve));
  const settle = () => {
    if (--outstanding === 0 && issued === total) allDone();
  };
  /** When each request was due (ms, performance.now()), by its index: its latency counts from there. */
  const sentDue = new Float64Array(total);
  const record = (i: number, status: number) => {
    const due = sentDue[i]!;
    if (i >= warmup) {
      if (status !== options.expectStatus) errors++;
      else {
        dueSecond[answered] = Math.floor((due - measuredFrom) / 1000);
        const latency = performance.now() - due;
        latencies[answered++] = latency;
        if (options.slow && latency > options.slow.overMs) options.slow.into.push([due + monotonicOffsetMs, latency]);
      }
    }
    settle();
  };
  const pool = new RawHttpPool(options.origin, options.connections, record);
  const one = (i: number, due: number) => {
    sentDue[i] = due;
    outstanding++;
    pool.send(i, pool.text(options.request(i)));
  };
  let issued = 0;
  const began = performance.now();
  const dueAt = (i: number) => began + (i * 1000) / options.rate;
  const measuredFrom = dueAt(warmup);
  while (issued < total) {
    // Timers fire a millisecond or so late: what falls due within the next millisecond starts now, and its
    // latency counts from when it was sent (a request sent late counts from when it was due).
    const now = performance.now();
    while (issued < total && dueAt(issued) <= now + 1) {
      one(issued, Math.min(dueAt(issued), now));
      issued++;
    }
    if (issued < total)
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt(issued) - 1 - performance.now())));
  }
  if (outstanding > 0) await finished;
  const seconds = (performance.now() - measuredFrom) / 1000;
  loopDelay.disable();
  pool.close();
  const answers = Array.from(latencies.subarray(0, answered));
  if (options.samples) for (const latency of answers) options.samples.push(latency);
  // Where in the phase the tail is: one p99 per second of due times.
  const bySecond: number[][] = Array.from({ length: Math.ceil(options.seconds) }, () => []);
  answers.forEach((latency, k) => bySecond[Math.min(dueSecond[k]!, bySecond.length - 1)]!.push(latency));
  return {
    ...summarise(answers, errors, seconds),
    client_loop_delay_p99_ms: Math.round(loopDelay.percentile(99) / 1e4) / 100,
    client_loop_delay_max_ms: Math.round(loopDelay.max / 1e4) / 100,
    seconds_p99_ms: bySecond.map((latencies) => summarise(latencies, 0, 1).p99_ms),
  };
}
