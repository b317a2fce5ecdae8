import type { Redis } from '@platform/redis';

/**
 * Which events were already counted, to drop a producer's repeat of an event (the same id at a later offset:
 * the redirector re-publishes a batch whose acknowledgement it lost). Ids are marked only once their batch is
 * in the buckets, and checked before a batch is planned:
 * - a repeat of an event counted in an earlier batch finds its mark and is dropped;
 * - a batch applied but not marked (a crash in between) is replayed from its uncommitted offsets, so the
 *   first occurrence of an id comes again before its repeat and the buckets' watermarks drop it; the repeat
 *   in the same batch is dropped by the batch's own first-occurrence rule;
 * - a batch marked but not committed is replayed and every event of it is dropped: it is in the buckets.
 *
 * Click ids are `<replica>:<boot>:<sequence>`, dense per producer, so their marks are bits (Redis SETBIT) in
 * 128 KiB chunks of 2^20 sequence numbers, one key per producer and chunk that expires `windowMs` after its
 * last write: a click costs one bit, not a key. Other ids (outbox events) are keys of their own.
 */
export interface Sightings {
  /** For each id, whether it was already counted. */
  seen(ids: readonly string[]): Promise<boolean[]>;
  /** Marks ids as counted (after their batch is in the buckets). */
  mark(ids: readonly string[]): Promise<void>;
}

const CHUNK_BITS = 20;
const DENSE = /^(.+):(\d{1,15})$/;

export function createRedisSightings(redis: Redis, options: { namespace?: string; windowMs: number }): Sightings {
  const prefix = `${options.namespace ?? ''}analytics:seen:`;
  const ttlSeconds = Math.max(1, Math.ceil(options.windowMs / 1000));
  const where = (id: string): { key: string; bit: number | null } => {
    const dense = DENSE.exec(id);
    if (!dense) return { key: `${prefix}id:${id}`, bit: null };
    const seq = Number(dense[2]);
    return { key: `${prefix}seq:${dense[1]}:${Math.floor(seq / 2 ** CHUNK_BITS)}`, bit: seq % 2 ** CHUNK_BITS };
  };

  return {
    async seen(ids) {
      if (ids.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const id of ids) {
        const { key, bit } = where(id);
        if (bit === null) pipeline.exists(key);
        else pipeline.getbit(key, bit);
      }
      const results = (await pipeline.exec()) ?? [];
      return results.map(([error, value]) => {
        if (error) throw error;
        return Number(value) === 1;
      });
    },

    async mark(ids) {
      if (ids.length === 0) return;
      const pipeline = redis.pipeline();
      const keys = new Set<string>();
      for (const id of ids) {
        const { key, bit } = where(id);
        if (bit === null) pipeline.set(key, '1', 'EX', ttlSeconds);
        else {
          pipeline.setbit(key, bit, 1);
          keys.add(key);
        }
      }
      for (const key of keys) pipeline.expire(key, ttlSeconds);
      for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
    },
  };
}
