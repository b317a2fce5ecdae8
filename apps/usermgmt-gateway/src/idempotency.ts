import type { FastifyRequest } from 'fastify';
import type { Redis } from '@platform/redis';
import { ConflictError } from '@platform/errors';
import { createIdempotency, type Idempotency } from '@platform/http';

/**
 * `Idempotency-Key` (as the real service accepts), per environment: a retry with the same key reuses the first
 * request's command id and resource id, so the worker answers it from its stored reply. The same key with a
 * different body is 409 (this API's answer to a conflicting request).
 */
export async function idempotentIds(
  redis: Redis,
  request: FastifyRequest,
  fresh: () => { commandId: string; resourceId: string },
): Promise<{ commandId: string; resourceId: string }> {
  let idempotency = byRedis.get(redis);
  if (!idempotency) {
    idempotency = createIdempotency({
      store: redis,
      scopeOf: (r) => r.environmentId,
      reused: () =>
        new ConflictError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.'),
    });
    byRedis.set(redis, idempotency);
  }
  return idempotency.ids(request, fresh);
}

// One per Redis client (one per app), not one per request.
const byRedis = new WeakMap<Redis, Idempotency>();
