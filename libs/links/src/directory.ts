import { randomUUID } from 'node:crypto';
import { roundTripBatcher } from '@platform/batching';
import type { Redis } from '@platform/redis';
import type { DomainDoc, GroupDoc, ProfileDoc } from './models.js';

/**
 * The part of the links data every shorten reads before it can send its command: the caller's profile (their
 * default group), the group (members, domains, preferences) and whether a host is a short domain. It changes
 * only through the links writer, and rarely.
 */
export interface Directory {
  getGroup(organizationId: string, guid: string): Promise<GroupDoc | null>;
  getProfile(organizationId: string, userId: string): Promise<ProfileDoc | null>;
  getDomain(domain: string): Promise<DomainDoc | null>;
}

/** An organization's groups and profiles are one scope; the short domains (read across organizations) another. */
export type DirectoryScope = { organization: string } | 'domains';

/**
 * A stamp per scope, shared by every process: the writer renews a scope's stamp after each change to it, before
 * the command's reply, and a reader keeps what it read under the stamp it saw before reading.
 */
export interface DirectoryStamps {
  /** The scopes' stamps now, in one round trip; null where there is none to trust (nothing read under it may be kept). */
  read(scopes: readonly DirectoryScope[]): Promise<Array<string | null>>;
  /** New stamps for these scopes; fails when they could not be written (the change must then be retried). */
  renew(scopes: readonly DirectoryScope[]): Promise<void>;
}

/** A stamp lives a day unchanged; a missing one is made again by the next read. */
const STAMP_TTL_SECONDS = 86_400;

const scopeName = (scope: DirectoryScope) => (scope === 'domains' ? 'domains' : `org:${scope.organization}`);

/**
 * Stamps in Redis. Reads made while one is in flight go out together in the next MGET: never in the one already
 * sent, so a read that starts after a renewal's reply sees the renewal. A stamp Redis lost (a restart, an
 * eviction) is made again and trusted from the next read on; Redis unreachable means no stamp (the store is read).
 */
export function redisDirectoryStamps(redis: Redis, namespace: string): DirectoryStamps {
  const key = (scope: DirectoryScope) => `${namespace}:directory:${scopeName(scope)}`;
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
      if (!results || failed) throw failed ?? new Error('the directory stamps were not renewed');
    },
  };
}

export interface DirectoryCacheOptions {
  /** At most this many records are kept (the oldest go first). */
  max?: number;
  /** A record is read again after this long whatever its stamp says. */
  ttlMs?: number;
}

/** The directory as one request reads it (see `CachedDirectory.forRequest`). */
export interface CachedDirectory extends Directory {
  /**
   * The directory for one request of an organization: the stamps of the organization and of the short domains
   * are read once, together, at its first read, and serve its later reads. Made when the request starts, so a
   * change answered before then is seen.
   */
  forRequest(organizationId: string): Directory;
}

/**
 * The directory's reads answered from memory while their scope's stamp is the one they were read under. What a
 * change's reply has been sent for is never served stale: the stamp was renewed before it, and every read checks
 * a stamp read after it began. Concurrent misses of a record share one read; a failed read is not kept. The
 * records are shared between callers, who must not change them.
 */
export function cachedDirectory(
  directory: Directory,
  stamps: DirectoryStamps,
  options: DirectoryCacheOptions = {},
): CachedDirectory {
  const max = options.max ?? 10_000;
  const ttlMs = options.ttlMs ?? 60_000;
  const records = new Map<string, { stamp: string; until: number; value: Promise<unknown> }>();

  function cached<T>(stamp: string | null, key: string, load: () => Promise<T | null>): Promise<T | null> {
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
  }

  /** Reads through stamps that `stampOf` gives (read once for a request, or at every call). */
  function reader(stampOf: (scope: DirectoryScope) => Promise<string | null>): Directory {
    return {
      getGroup: async (organizationId, guid) =>
        cached(await stampOf({ organization: organizationId }), `g\n${organizationId}\n${guid}`, () =>
          directory.getGroup(organizationId, guid),
        ),
      getProfile: async (organizationId, userId) =>
        cached(await stampOf({ organization: organizationId }), `p\n${organizationId}\n${userId}`, () =>
          directory.getProfile(organizationId, userId),
        ),
      getDomain: async (domain) =>
        cached(await stampOf('domains'), `d\n${domain.toLowerCase()}`, () => directory.getDomain(domain)),
    };
  }

  return {
    ...reader(async (scope) => (await stamps.read([scope]))[0]!),
    forRequest(organizationId) {
      let both: Promise<Array<string | null>> | undefined;
      return reader(async (scope) => {
        if (scope !== 'domains' && scope.organization !== organizationId) return (await stamps.read([scope]))[0]!;
        both ??= stamps.read([{ organization: organizationId }, 'domains']);
        const [organization, domains] = await both;
        return scope === 'domains' ? domains! : organization!;
      });
    },
  };
}
