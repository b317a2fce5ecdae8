import { RateLimitedError } from '@platform/errors';
import type { Redis } from '@platform/redis';

export interface FailureLimits {
  perIp: number;
  perClient: number;
  windowSeconds: number;
}

/**
 * Brute-force protection for the token endpoint: failed client authentications and failed grants are
 * counted per client IP and per client_id in fixed Redis windows; past a limit, requests from that IP (or
 * for that client) are answered 429 with Retry-After until the window ends. Successful requests cost one
 * MGET. The per-client limit is higher so that one attacker cannot easily lock a client out.
 */
export function createFailureLimiter(redis: Redis, limits: FailureLimits, namespace = 'oauth') {
  const keys = (ip: string, clientId: string | undefined) => [
    `${namespace}:token-failures:ip:${ip}`,
    ...(clientId ? [`${namespace}:token-failures:client:${clientId.slice(0, 200)}`] : []),
  ];
  return {
    async check(ip: string, clientId: string | undefined): Promise<void> {
      const k = keys(ip, clientId);
      const counts = await redis.mget(...k);
      const over = k.findIndex((key, i) => Number(counts[i] ?? 0) >= (i === 0 ? limits.perIp : limits.perClient));
      if (over === -1) return;
      const ttl = await redis.ttl(k[over]!);
      throw new RateLimitedError('too_many_requests', 'Too many failed token requests; try again later.', {
        retryAfterSeconds: ttl > 0 ? ttl : limits.windowSeconds,
      });
    },
    async recordFailure(ip: string, clientId: string | undefined): Promise<void> {
      const multi = redis.multi();
      for (const key of keys(ip, clientId)) multi.incr(key).expire(key, limits.windowSeconds, 'NX');
      await multi.exec();
    },
  };
}

export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
