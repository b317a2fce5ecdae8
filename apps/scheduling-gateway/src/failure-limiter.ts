import { createFailureLimiter as createLimiter, type Redis } from '@platform/redis';

export interface FailureLimits {
  perIp: number;
  perClient: number;
  windowSeconds: number;
}

/**
 * The token endpoint's brute-force protection: failed client authentications and failed grants per client
 * IP and per client_id. The per-client limit is higher so that one attacker cannot easily lock a client out.
 */
export function createFailureLimiter(redis: Redis, limits: FailureLimits, namespace = 'oauth') {
  const limiter = createLimiter(redis, {
    windowSeconds: limits.windowSeconds,
    namespace: `${namespace}:token`,
    message: 'Too many failed token requests; try again later.',
  });
  const counters = (ip: string, clientId: string | undefined) => [
    { key: `ip:${ip}`, limit: limits.perIp },
    ...(clientId ? [{ key: `client:${clientId}`, limit: limits.perClient }] : []),
  ];
  return {
    check: (ip: string, clientId: string | undefined) => limiter.check(counters(ip, clientId)),
    recordFailure: (ip: string, clientId: string | undefined) => limiter.recordFailure(counters(ip, clientId)),
  };
}

export type FailureLimiter = ReturnType<typeof createFailureLimiter>;
