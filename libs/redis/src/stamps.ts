import { randomUUID } from 'node:crypto';
import { roundTripBatcher } from '@platform/batching';
import type { Redis } from 'ioredis';

/**
 * A stamp per scope of records (an organization's groups, one OAuth client), shared by every process: the writer
 * of those records renews the scope's stamp after each change, before the command's reply, and a reader keeps
 * what it read under the stamp it saw before reading. A record kept in memory is then served only while no
 * change answered since could have replaced it.
 */
export interface Stamps {
  /** The scopes' stamps now, in one round trip; null where there is none to trust (nothing read under it may be kept). */
  read(scopes: readonly string[]): Promise<Array<string | null>>;
  /** New stamps for these scopes; fails when they could not be written (the change must then be retried). */
  renew(scopes: readonly string[]): Promise<void>;
}

/** A stamp lives a day unchanged; a missing one is made again by the next read. */
const STAMP_TTL_SECONDS = 86_400;

/**
 * Stamps in Redis under `<namespace>:<scope>`. Reads made while one is in flight go out together in the next
 * MGET: never in the one already sent, so a read that starts after a renewal's reply sees the renewal. A stamp
 * Redis lost (a restart, an eviction) is made again and trusted from the next read on; Redis unreachable means
 * no stamp (the store is read).
 */
export function redisStamps(redis: Redis, namespace: string): Stamps {
  const key = (scope: string) => `${namespace}:${scope}`;
  const readKeys = roundTripBatcher(async (calls: string[][]) => {
    const unique = [...new Set(calls.flat())];
    const values = await redis.mget(...unique);
    const missing = unique.filter((_, i) => values[i] === null);
    if (missing.length > 0) {
      const seed = redis.pipeline();
      for (const name of missing) seed.set(name, randomUUID(), 'EX', STAMP_TTL_SECONDS, 'NX');
      await seed.exec();
    }
    const stamps = new Map(unique.map((name, i) => [name, values[i] ?? null]));
    return calls.map((keys) => keys.map((name) => stamps.get(name) ?? null));
  });
  return {
    read: (scopes) => readKeys(scopes.map(key)).catch(() => scopes.map(() => null)),
    async renew(scopes) {
      const write = redis.multi();
      for (const scope of scopes) write.set(key(scope), randomUUID(), 'EX', STAMP_TTL_SECONDS);
      const results = await write.exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (!results || failed) throw failed ?? new Error('the stamps were not renewed');
    },
  };
}

export interface StampedRecordsOptions {
  /** At most this many records are kept (the oldest go first). */
  max?: number;
  /** A record is read again after this long whatever its stamp says. */
  ttlMs?: number;
}

/**
 * Records kept in memory under the stamp they were read under: `get` answers from memory while the stamp given is
 * that one, and reads otherwise. Concurrent misses of a record share one read; a failed read is not kept; with no
 * stamp (null) nothing is kept. The records are shared between callers, who must not change them.
 */
export function stampedRecords(options: StampedRecordsOptions = {}) {
  const max = options.max ?? 10_000;
  const ttlMs = options.ttlMs ?? 60_000;
  const records = new Map<string, { stamp: string; until: number; value: Promise<unknown> }>();
  return function get<T>(stamp: string | null, key: string, load: () => Promise<T | null>): Promise<T | null> {
    if (stamp === null) return load();
    const now = Date.now();
    const hit = records.get(key);
    if (hit && hit.stamp === stamp && hit.until > now) return hit.value as Promise<T | null>;
    records.delete(key);
    if (records.size >= max) records.delete(records.keys().next().value!);
    const value = load();
    records.set(key, { stamp, until: now + ttlMs, value });
    value.catch(() => {
      if (records.get(key)?.value === value) records.delete(key);
    });
    return value;
  };
}
