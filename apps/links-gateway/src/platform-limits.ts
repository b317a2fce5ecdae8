import type { FastifyRequest } from 'fastify';
import type { Redis } from '@platform/redis';
import { RateLimitedError } from '@platform/errors';
import type { Logger } from '@platform/telemetry';

export interface PlatformLimitsOptions {
  /** Calls per hour an organization may make to one endpoint with one method. */
  defaultHourly: number;
  /** Per endpoint (`/shorten`, `/groups/{group_guid}/shortlinks`) and method: its own hourly limit. */
  overrides: Record<string, Record<string, number>>;
  namespace: string;
  logger: Logger;
}

export interface PlatformLimitItem {
  endpoint: string;
  methods: Array<{ name: string; limit: number; count: number }>;
}

/** `/v4/groups/:group_guid/shortlinks` as Bitly names endpoints: `/groups/{group_guid}/shortlinks`. */
export const endpointOf = (routeUrl: string) => routeUrl.replace(/^\/v4(?=\/)/, '').replace(/:([A-Za-z_]+)/g, '{$1}');

/**
 * Bitly's platform limits: every organization may call each endpoint with each method a number of times an
 * hour, and a tenth of that a minute; both windows are Redis counters shared by every gateway replica.
 * The count `platform_limits` answers is the same hourly counter the limit is checked against.
 */
export function createPlatformLimits(redis: Redis, options: PlatformLimitsOptions) {
  const endpoints = new Map<string, Set<string>>();
  const limitOf = (endpoint: string, method: string) => options.overrides[endpoint]?.[method] ?? options.defaultHourly;
  const hourKey = (org: string, endpoint: string, method: string, now: number) =>
    `${options.namespace}:pl:${org}:${method}:${endpoint}:h${Math.floor(now / 3_600_000)}`;
  const minuteKey = (org: string, endpoint: string, method: string, now: number) =>
    `${options.namespace}:pl:${org}:${method}:${endpoint}:m${Math.floor(now / 60_000)}`;

  return {
    /** Records an endpoint the API serves (from the router's onRoute hook). */
    register(routeUrl: string, method: string) {
      const endpoint = endpointOf(routeUrl);
      if (!endpoints.has(endpoint)) endpoints.set(endpoint, new Set());
      endpoints.get(endpoint)!.add(method);
    },

    /** Counts the call and refuses it (429 RATE_LIMIT_EXCEEDED) past the hourly or per-minute limit. */
    async check(request: FastifyRequest, organizationId: string): Promise<void> {
      const routeUrl = request.routeOptions.url;
      if (!routeUrl) return;
      const endpoint = endpointOf(routeUrl);
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const limit = limitOf(endpoint, method);
      const now = Date.now();
      const hour = hourKey(organizationId, endpoint, method, now);
      const minute = minuteKey(organizationId, endpoint, method, now);
      let counts: [number, number];
      try {
        const results = await redis
          .multi()
          .incr(hour)
          .expire(hour, 3_700, 'NX')
          .incr(minute)
          .expire(minute, 70, 'NX')
          .exec();
        counts = [Number(results?.[0]?.[1] ?? 0), Number(results?.[2]?.[1] ?? 0)];
      } catch (error) {
        // Limits protect the service; they must not take it down with Redis: the call goes through, loudly.
        options.logger.warn({ err: error, endpoint }, 'platform limit not checked: redis unavailable');
        return;
      }
      if (counts[0] > limit)
        throw new RateLimitedError('RATE_LIMIT_EXCEEDED', `More than ${limit} calls an hour to ${endpoint}.`, {
          retryAfterSeconds: 3_600 - Math.floor((now / 1000) % 3_600),
        });
      if (counts[1] > Math.max(1, Math.ceil(limit / 10)))
        throw new RateLimitedError(
          'RATE_LIMIT_EXCEEDED',
          `More than ${Math.ceil(limit / 10)} calls a minute to ${endpoint}.`,
          { retryAfterSeconds: 60 - Math.floor((now / 1000) % 60) },
        );
    },

    /** Every endpoint (or the one `path` names, as a template or a concrete path) with its limits and this hour's counts. */
    async report(organizationId: string, path?: string): Promise<PlatformLimitItem[]> {
      const wanted = path ? endpointOf(path.split('?')[0]!) : null;
      const matches = (endpoint: string) => {
        if (wanted === null || wanted === endpoint) return true;
        const pattern = new RegExp(
          `^${endpoint.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[A-Za-z_]+\}/g, '[^/]+')}$`,
        );
        return pattern.test(wanted);
      };
      const now = Date.now();
      const rows = [...endpoints].filter(([endpoint]) => matches(endpoint)).sort(([a], [b]) => a.localeCompare(b));
      const keys = rows.flatMap(([endpoint, methods]) =>
        [...methods].sort().map((method) => hourKey(organizationId, endpoint, method, now)),
      );
      const counts = keys.length > 0 ? await redis.mget(...keys) : [];
      let i = 0;
      return rows.map(([endpoint, methods]) => ({
        endpoint: `/v4${endpoint}`,
        methods: [...methods]
          .sort()
          .map((name) => ({ name, limit: limitOf(endpoint, name), count: Number(counts[i++] ?? 0) })),
      }));
    },
  };
}

export type PlatformLimits = ReturnType<typeof createPlatformLimits>;
