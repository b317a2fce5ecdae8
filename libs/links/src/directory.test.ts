import { describe, expect, it } from 'vitest';
import { cachedDirectory, type Directory, type DirectoryScope, type DirectoryStamps } from './directory.js';
import type { GroupDoc } from './models.js';

/** Stamps held in memory, renewed by the test; `unknown` makes every read answer none. */
function memoryStamps() {
  const stamps = new Map<string, number>();
  const name = (scope: DirectoryScope) => (scope === 'domains' ? 'domains' : scope.organization);
  let unknown = false;
  let reads = 0;
  const api: DirectoryStamps = {
    read: async (scopes) => {
      reads++;
      return scopes.map((scope) => (unknown ? null : String(stamps.get(name(scope)) ?? 0)));
    },
    renew: async (scopes) => {
      for (const scope of scopes) stamps.set(name(scope), (stamps.get(name(scope)) ?? 0) + 1);
    },
  };
  return { api, forget: (value: boolean) => (unknown = value), reads: () => reads };
}

/** A directory that counts its reads and answers what the test stored. */
function countingDirectory() {
  const groups = new Map<string, GroupDoc>();
  const reads = { group: 0, profile: 0, domain: 0 };
  let failNext = false;
  const directory: Directory = {
    async getGroup(organizationId, guid) {
      reads.group++;
      if (failNext) {
        failNext = false;
        throw new Error('store unreachable');
      }
      return groups.get(`${organizationId}/${guid}`) ?? null;
    },
    async getProfile() {
      reads.profile++;
      return null;
    },
    async getDomain() {
      reads.domain++;
      return null;
    },
  };
  const group = (name: string) => ({ _id: 'g1', organization_id: 'o1', name }) as GroupDoc;
  return { directory, groups, reads, group, failOnce: () => (failNext = true) };
}

describe('cachedDirectory', () => {
  it('answers from memory while the scope keeps its stamp, and reads again once it is renewed', async () => {
    const stamps = memoryStamps();
    const store = countingDirectory();
    store.groups.set('o1/g1', store.group('before'));
    const directory = cachedDirectory(store.directory, stamps.api);

    expect((await directory.getGroup('o1', 'g1'))?.name).toBe('before');
    expect((await directory.getGroup('o1', 'g1'))?.name).toBe('before');
    expect(store.reads.group).toBe(1);

    store.groups.set('o1/g1', store.group('after'));
    await stamps.api.renew([{ organization: 'o1' }]);
    expect((await directory.getGroup('o1', 'g1'))?.name).toBe('after');
    expect(store.reads.group).toBe(2);
  });

  it("keeps an organization's records apart from another's stamp and the short domains' stamp", async () => {
    const stamps = memoryStamps();
    const store = countingDirectory();
    const directory = cachedDirectory(store.directory, stamps.api);
    await directory.getProfile('o1', 'u1');
    await directory.getDomain('Example.COM');
    await stamps.api.renew([{ organization: 'o2' }]);
    await directory.getProfile('o1', 'u1');
    await directory.getDomain('example.com');
    expect(store.reads).toEqual({ group: 0, profile: 1, domain: 1 });

    await stamps.api.renew(['domains']);
    await directory.getProfile('o1', 'u1');
    await directory.getDomain('example.com');
    expect(store.reads).toEqual({ group: 0, profile: 1, domain: 2 });
  });

  it('reads the store every time while there is no stamp to trust', async () => {
    const stamps = memoryStamps();
    stamps.forget(true);
    const store = countingDirectory();
    const directory = cachedDirectory(store.directory, stamps.api);
    await directory.getDomain('example.com');
    await directory.getDomain('example.com');
    expect(store.reads.domain).toBe(2);
  });

  it('shares one read between concurrent misses and does not keep a failed one', async () => {
    const stamps = memoryStamps();
    const store = countingDirectory();
    store.groups.set('o1/g1', store.group('one'));
    const directory = cachedDirectory(store.directory, stamps.api);

    store.failOnce();
    await expect(directory.getGroup('o1', 'g1')).rejects.toThrow('store unreachable');
    const [a, b] = await Promise.all([directory.getGroup('o1', 'g1'), directory.getGroup('o1', 'g1')]);
    expect([a?.name, b?.name]).toEqual(['one', 'one']);
    expect(store.reads.group).toBe(2);
  });

  it("reads the organization's and the domains' stamps once for all the reads of one request", async () => {
    const stamps = memoryStamps();
    const store = countingDirectory();
    store.groups.set('o1/g1', store.group('one'));
    const directory = cachedDirectory(store.directory, stamps.api);
    await directory.getGroup('o1', 'g1');
    await directory.getDomain('example.com');
    expect(stamps.reads()).toBe(2);

    const request = directory.forRequest('o1');
    await Promise.all([request.getProfile('o1', 'u1'), request.getGroup('o1', 'g1'), request.getDomain('example.com')]);
    expect(stamps.reads()).toBe(3);
    expect(store.reads).toEqual({ group: 1, profile: 1, domain: 1 });

    // A change answered after the request began is the next request's to see, never a later one's to miss.
    store.groups.set('o1/g1', store.group('two'));
    await stamps.api.renew([{ organization: 'o1' }]);
    expect((await request.getGroup('o1', 'g1'))?.name).toBe('one');
    expect((await directory.forRequest('o1').getGroup('o1', 'g1'))?.name).toBe('two');
    // Another organization's record is read under its own stamp.
    await request.getGroup('o2', 'g1');
    expect(stamps.reads()).toBe(5);
  });

  it('reads a record again once its time is up, and holds at most max records', async () => {
    const stamps = memoryStamps();
    const store = countingDirectory();
    const expiring = cachedDirectory(store.directory, stamps.api, { ttlMs: 0 });
    await expiring.getDomain('a.example');
    await expiring.getDomain('a.example');
    expect(store.reads.domain).toBe(2);

    const small = cachedDirectory(store.directory, stamps.api, { max: 2 });
    for (const host of ['b.example', 'c.example', 'd.example', 'b.example']) await small.getDomain(host);
    expect(store.reads.domain).toBe(2 + 4);
  });
});
