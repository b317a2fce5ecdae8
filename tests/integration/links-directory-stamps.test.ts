import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisDirectoryStamps, type DirectoryScope, type DirectoryStamps } from '@platform/links';
import { createRedis, type Redis } from '@platform/redis';
import { freePort, resolveInfra, uniqueName } from '@platform/testing';

let redis: Redis;

beforeAll(() => {
  redis = createRedis(resolveInfra().redisUrl, { name: 'directory-stamps-test' });
});

afterAll(() => redis.disconnect());

/** The stamps read one scope at a time. */
const one = (stamps: DirectoryStamps) => ({
  read: async (scope: DirectoryScope) => (await stamps.read([scope]))[0],
  renew: stamps.renew,
});

describe("the links directory's stamps in Redis", () => {
  it('has none to trust at first, then one that holds until a renewal replaces it', async () => {
    const stamps = one(redisDirectoryStamps(redis, uniqueName('dir')));
    const org = { organization: 'o1' };
    expect(await stamps.read(org)).toBeNull();
    const first = await stamps.read(org);
    expect(first).toEqual(expect.any(String));
    expect(await stamps.read(org)).toBe(first);

    const domains = await stamps.read('domains').then(() => stamps.read('domains'));
    const otherOrg = await stamps.read({ organization: 'o2' }).then(() => stamps.read({ organization: 'o2' }));
    await stamps.renew([org]);
    const renewed = await stamps.read(org);
    expect(renewed).toEqual(expect.any(String));
    expect(renewed).not.toBe(first);
    expect(await stamps.read('domains')).toBe(domains);
    expect(await stamps.read({ organization: 'o2' })).toBe(otherOrg);
  });

  it('answers a read begun after a renewal with the renewed stamp, however many reads are in flight', async () => {
    const stamps = one(redisDirectoryStamps(redis, uniqueName('dir')));
    const org = { organization: 'busy' };
    await stamps.renew([org]);
    const before = await stamps.read(org);
    const inFlight = Array.from({ length: 200 }, () => stamps.read(org));
    await stamps.renew([org]);
    const after = await stamps.read(org);
    expect(after).not.toBe(before);
    for (const stamp of await Promise.all(inFlight)) expect([before, after]).toContain(stamp);
  });

  it('reads several scopes in one call, in the order asked', async () => {
    const stamps = redisDirectoryStamps(redis, uniqueName('dir'));
    await stamps.renew([{ organization: 'a' }, 'domains']);
    const [a, domains] = await stamps.read([{ organization: 'a' }, 'domains']);
    expect(await stamps.read(['domains', { organization: 'a' }, { organization: 'a' }])).toEqual([domains, a, a]);
    expect(a).not.toBe(domains);
  });

  it('makes a stamp Redis lost again', async () => {
    const namespace = uniqueName('dir');
    const stamps = one(redisDirectoryStamps(redis, namespace));
    await stamps.renew(['domains']);
    const before = await stamps.read('domains');
    await redis.del(`${namespace}:directory:domains`);
    expect(await stamps.read('domains')).toBeNull();
    const remade = await stamps.read('domains');
    expect(remade).toEqual(expect.any(String));
    expect(remade).not.toBe(before);
  });

  it('reads no stamp and refuses to renew while Redis is unreachable', async () => {
    const down = createRedis(`redis://127.0.0.1:${await freePort()}`, { name: 'directory-stamps-down' });
    try {
      const stamps = one(redisDirectoryStamps(down, uniqueName('dir')));
      expect(await stamps.read('domains')).toBeNull();
      await expect(stamps.renew(['domains'])).rejects.toThrow();
    } finally {
      down.disconnect();
    }
  }, 20_000);
});
