/**
 * Delay before each attempt, from the first (immediately) to the last (about a day after the first):
 * immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
 */
export const DEFAULT_RETRY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/**
 * Delay before attempt number `attempt` (1-based), or undefined after the last. `scale` compresses the
 * clock (tests); jitter of ±20% spreads retries of many deliveries that failed together.
 */
export function retryDelayMs(
  attempt: number,
  options: { schedule?: number[]; scale?: number; random?: () => number } = {},
): number | undefined {
  const schedule = options.schedule ?? DEFAULT_RETRY_SCHEDULE_MS;
  const base = schedule[attempt - 1];
  if (base === undefined) return undefined;
  const jitter = 0.8 + 0.4 * (options.random ?? Math.random)();
  return Math.round(base * jitter * (options.scale ?? 1));
}

/** Retry-After as seconds or an HTTP date (RFC 9110 10.2.3), capped so a target cannot park a delivery forever. */
export function parseRetryAfter(
  value: string | undefined,
  now = Date.now(),
  capMs = 24 * 3600_000,
): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, capMs);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), capMs);
}
