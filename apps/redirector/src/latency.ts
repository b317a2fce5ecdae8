/**
 * Upper bounds, in seconds, of the redirect latency buckets: ADR 0017's target is a p99 under 10 ms, so the
 * resolution is finest below it; store reads of cache misses fill the upper ones.
 */
export const REDIRECT_LATENCY_BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface LatencyHistogram {
  record(seconds: number): void;
  /** Cumulative counts per upper bound (Prometheus's `le`), `+Inf` last, and the sum of every sample. */
  read(): { buckets: Array<{ le: string; count: number }>; sum: number };
}

/**
 * A histogram in plain numbers, for a path where a labelled instrument per request costs too much (ADR 0017):
 * a sample is a short scan and two additions; the cumulative form is built when the metrics are read.
 */
export function createLatencyHistogram(bounds: readonly number[] = REDIRECT_LATENCY_BOUNDS): LatencyHistogram {
  const counts = new Array<number>(bounds.length + 1).fill(0);
  const labels = [...bounds.map(String), '+Inf'];
  let sum = 0;
  return {
    record(seconds) {
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      counts[i]!++;
      sum += seconds;
    },
    read() {
      let cumulative = 0;
      return { buckets: labels.map((le, i) => ({ le, count: (cumulative += counts[i]!) })), sum };
    },
  };
}
