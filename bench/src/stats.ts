export interface LatencyStats {
  requests: number;
  errors: number;
  seconds: number;
  requests_per_second: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  mean_ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export function summarise(latencies: number[], errors: number, seconds: number): LatencyStats {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    requests: latencies.length,
    errors,
    seconds: round(seconds),
    requests_per_second: round(latencies.length / seconds),
    p50_ms: round(percentile(sorted, 50)),
    p90_ms: round(percentile(sorted, 90)),
    p99_ms: round(percentile(sorted, 99)),
    mean_ms: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
  };
}

/** The q-quantile of `values`, interpolated between the two nearest ranks (NaN when empty). */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lower = Math.floor(pos);
  const upper = Math.ceil(pos);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (pos - lower);
}
