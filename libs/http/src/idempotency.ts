import { createHash } from 'node:crypto';
import type { PlatformError } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';

/** Where keys are kept: Redis (ioredis's `SET … EX … NX` and `GET`). */
export interface IdempotencyStore {
  set(key: string, value: string, expiry: 'EX', seconds: number, mode: 'NX'): Promise<'OK' | null>;
  get(key: string): Promise<string | null>;
}

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** Whose keys these are (an environment, a user): one scope's keys never meet another's. */
  scopeOf(request: FastifyRequest): string;
  /** The answer to a key sent again with another body. */
  reused(): PlatformError;
  /** How long a key is kept (default: 24 h, as long as the workers keep their replies). */
  ttlSeconds?: number;
}

/** The `Idempotency-Key` request header, for a creating route's `headers` schema. */
export const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Makes a retry safe: the same key and body within 24 hours answer as the first request did; the same key with another body is refused.',
    }),
  ),
});

const DAY_SECONDS = 24 * 60 * 60;

/**
 * `Idempotency-Key` on creating requests. The first request with a key stores the ids it was about to use (the
 * command id, and those of what it creates); a retry with the same key and body gets them back, so it sends the
 * same command again and the worker answers it from its stored reply: the first answer, whatever happened to the
 * first request's connection. The same key with another body is refused. Keys are kept per scope, route and key.
 * A request refused before its key is claimed (validation, access) leaves the key free.
 */
export function createIdempotency(options: IdempotencyOptions) {
  const ttlSeconds = options.ttlSeconds ?? DAY_SECONDS;
  return {
    /**
     * The ids this request uses: `fresh()`'s (and a new command id) without a key or for a new key, the first
     * request's for a key seen before with the same body.
     */
    async ids<T extends object>(
      request: FastifyRequest,
      fresh: () => T & { commandId: string },
    ): Promise<T & { commandId: string }> {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string') return fresh();
      const slot = createHash('sha256')
        .update(`${options.scopeOf(request)}\n${request.method}\n${request.routeOptions.url}\n${key}`)
        .digest('hex');
      const fingerprint = createHash('sha256')
        .update(JSON.stringify(request.body ?? null))
        .digest('hex');
      const candidate = { ...fresh(), commandId: `idem-${slot}` };
      const claimed = await options.store.set(
        `idem:${slot}`,
        JSON.stringify({ ...candidate, fingerprint }),
        'EX',
        ttlSeconds,
        'NX',
      );
      if (claimed === 'OK') return candidate;
      const previous = JSON.parse((await options.store.get(`idem:${slot}`)) ?? 'null') as
        (T & { commandId: string; fingerprint: string }) | null;
      // Expired between the two calls: this request is the first again.
      if (!previous) return candidate;
      const { fingerprint: first, ...ids } = previous;
      if (first !== fingerprint) throw options.reused();
      return ids as unknown as T & { commandId: string };
    },
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
