import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Redis } from '@platform/redis';
import { InputError, ConflictError } from '@platform/errors';

const TTL_SECONDS = 24 * 60 * 60;

/**
 * `Idempotency-Key` (as the real service accepts): a retry with the same key reuses the first request's
 * command id and resource id, so the worker answers it from its stored reply. The same key with a
 * different body is refused.
 */
export async function idempotentIds(
  redis: Redis,
  request: FastifyRequest,
  fresh: () => { commandId: string; resourceId: string },
): Promise<{ commandId: string; resourceId: string }> {
  const key = request.headers['idempotency-key'];
  if (key === undefined) return fresh();
  if (typeof key !== 'string' || key.length === 0 || key.length > 255) {
    throw new InputError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 characters.');
  }
  const scope = createHash('sha256')
    .update(`${request.environmentId}\n${request.method}\n${request.routeOptions.url}\n${key}`)
    .digest('hex');
  const fingerprint = createHash('sha256')
    .update(JSON.stringify(request.body ?? null))
    .digest('hex');
  const candidate = { ...fresh(), commandId: `idem-${scope}`, fingerprint };
  const stored = await redis.set(`idem:${scope}`, JSON.stringify(candidate), 'EX', TTL_SECONDS, 'NX');
  if (stored === 'OK') return candidate;
  const previous = JSON.parse((await redis.get(`idem:${scope}`)) ?? 'null') as typeof candidate | null;
  if (!previous) return candidate;
  if (previous.fingerprint !== fingerprint) {
    throw new ConflictError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
  }
  return previous;
}
