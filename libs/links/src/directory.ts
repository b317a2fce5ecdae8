import { redisStamps, stampedRecords, type Redis, type StampedRecordsOptions } from '@platform/redis';
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

/** The directory's stamps (`Stamps`, libs/redis), by scope. */
export interface DirectoryStamps {
  read(scopes: readonly DirectoryScope[]): Promise<Array<string | null>>;
  renew(scopes: readonly DirectoryScope[]): Promise<void>;
}

const scopeName = (scope: DirectoryScope) => (scope === 'domains' ? 'domains' : `org:${scope.organization}`);

/** The directory's stamps in Redis, under `<namespace>:directory:`. */
export function redisDirectoryStamps(redis: Redis, namespace: string): DirectoryStamps {
  const stamps = redisStamps(redis, `${namespace}:directory`);
  return {
    read: (scopes) => stamps.read(scopes.map(scopeName)),
    renew: (scopes) => stamps.renew(scopes.map(scopeName)),
  };
}

export type DirectoryCacheOptions = StampedRecordsOptions;

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
 * a stamp read after it began.
 */
export function cachedDirectory(
  directory: Directory,
  stamps: DirectoryStamps,
  options: DirectoryCacheOptions = {},
): CachedDirectory {
  const cached = stampedRecords(options);

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
