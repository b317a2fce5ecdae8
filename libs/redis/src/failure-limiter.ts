import { RateLimitedError } from '@platform/errors';
import type { Redis } from 'ioredis';

export interface FailureCounter {
  /** What is counted, e.g. `ip:203.0.113.7` or `client:cl_123`. */
  key: string;
  /** Failures allowed per window before requests for this key are refused. */
  limit: number;
}

/**
 * Brute-force protection: failures (wrong passwords, secrets, codes) are counted per key in fixed Redis
 * windows; once a key reaches its limit, `check` throws RateLimitedError (429) with the seconds until the
 * window ends. A check costs one MGET; only failures write.
 */
export function createFailureLimiter(
  redis: Redis,
  options: { windowSeconds: number; namespace: string; message: string },
) {
  const full = (key: string) => `${options.namespace}:failures:${key.slice(0, 300)}`;
  return {
    async check(counters: FailureCounter[]): Promise<void> {
      if (counters.length === 0) return;
      const keys = counters.map((c) => full(c.key));
      const counts = await redis.mget(...keys);
      const over = counters.findIndex((c, i) => Number(counts[i] ?? 0) >= c.limit);
      if (over === -1) return;
      const ttl = await redis.ttl(keys[over]!);
      throw new RateLimitedError('too_many_requests', options.message, {
        retryAfterSeconds: ttl > 0 ? ttl : options.windowSeconds,
      });
    },
    async recordFailure(counters: FailureCounter[]): Promise<void> {
      const multi = redis.multi();
      for (const c of counters) multi.incr(full(c.key)).expire(full(c.key), options.windowSeconds, 'NX');
      await multi.exec();
    },
  };
}

export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
