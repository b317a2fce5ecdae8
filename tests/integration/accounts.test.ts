import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVOKED_KEYS_CHANNEL, createAccounts, createMembers, type Accounts, type Members } from '@platform/accounts';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createRedis, type Redis } from '@platform/redis';
import { hashSecret } from '@platform/secrets';
import { resolveInfra, uniqueName, waitFor } from '@platform/testing';
import { TEST_SECRETS } from '../support/secrets.js';

let mongo: MongoConnection;
let redis: Redis;
let accounts: Accounts;
let members: Members;

beforeAll(async () => {
  const infra = resolveInfra();
  const name = uniqueName('acct');
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  redis = createRedis(infra.redisUrl, { name });
  accounts = createAccounts({ connection: mongo, redis, pepper: TEST_SECRETS.API_KEY_PEPPER });
  await accounts.ensureIndexes();
  members = createMembers(mongo);
  await members.ensureIndexes();
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
  redis?.disconnect();
});

describe('API keys', () => {
  it('carry the user they act as, from the store and from the cache alike, for their own service only', async () => {
    const deployment = await accounts.createEnvironment('notifications', 'test');
    const { key, record } = await accounts.createKey(deployment._id, { subject: 'usr_owner' });
    expect(key.startsWith('nk_')).toBe(true);
    const expected = {
      keyId: record._id,
      environmentId: deployment._id,
      service: 'notifications',
      subject: 'usr_owner',
    };
    expect(await accounts.verifyKey('notifications', key)).toEqual(expected); // from the store
    expect(await accounts.verifyKey('notifications', key)).toEqual(expected); // from the cache
    expect(await accounts.verifyKey('links', key)).toBeNull();
    await accounts.revokeKey(record._id);
    expect(await accounts.verifyKey('notifications', key)).toBeNull();
  });

  it('are kept in the memory of a process that asks for it, and dropped there as soon as another revokes one', async () => {
    const name = uniqueName('keymem');
    const gateway = createAccounts({
      connection: mongo,
      redis,
      pepper: TEST_SECRETS.API_KEY_PEPPER,
      rememberKeys: { name },
    });
    try {
      const deployment = await accounts.createEnvironment('links', 'test');
      // A key read from the store, then Redis given another answer: the memory, once its revocation listener is
      // in place (it connects on its own), still gives the first.
      const newKey = async () => {
        const { key, record } = await accounts.createKey(deployment._id);
        const hash = hashSecret(key, TEST_SECRETS.API_KEY_PEPPER);
        const identity = { keyId: record._id, environmentId: deployment._id, service: 'links', subject: null };
        const rememberedFromStore = async () => {
          await redis.del(`apikey:${hash}`);
          await gateway.verifyKey('links', key);
          await redis.set(`apikey:${hash}`, JSON.stringify({ ...identity, environmentId: 'env_elsewhere' }), 'EX', 60);
          return (await gateway.verifyKey('links', key))?.environmentId === deployment._id;
        };
        return { key, hash, record, identity, rememberedFromStore };
      };
      const { key, hash, identity, rememberedFromStore } = await newKey();
      await waitFor(rememberedFromStore);
      // The process without memory reads Redis; the one with it answers from memory.
      expect(await accounts.verifyKey('links', key)).toMatchObject({ environmentId: 'env_elsewhere' });
      expect(await gateway.verifyKey('links', key)).toEqual(identity);
      expect(await gateway.verifyKey('usermgmt', key)).toBeNull();

      // A lost listener: nothing kept is trusted until it listens again.
      const listener = (await redis.client('LIST')) as string;
      const id = /id=(\d+) [^\n]*name=(\S+)/g;
      const ids = [...listener.matchAll(id)].filter((m) => m[2] === `${name}-revoked-keys`).map((m) => m[1]!);
      expect(ids).toHaveLength(1);
      await redis.client('KILL', 'ID', ids[0]!);
      await waitFor(async () => (await gateway.verifyKey('links', key))?.environmentId === 'env_elsewhere', {
        timeoutMs: 2000,
      });

      // Another process's revocation comes as a message: the key is dropped from memory.
      await waitFor(rememberedFromStore);
      await redis.publish(REVOKED_KEYS_CHANNEL, hash);
      await waitFor(async () => (await gateway.verifyKey('links', key))?.environmentId === 'env_elsewhere', {
        timeoutMs: 1000,
        intervalMs: 5,
      });

      // A revocation made here reaches this process's memories before it returns, and the others by message.
      const revoked = await newKey();
      await waitFor(revoked.rememberedFromStore);
      const heard: string[] = [];
      const listening = redis.duplicate();
      listening.on('message', (_channel: string, revoked: string) => heard.push(revoked));
      await listening.subscribe(REVOKED_KEYS_CHANNEL);
      try {
        await accounts.revokeKey(revoked.record._id);
        expect(await gateway.verifyKey('links', revoked.key)).toBeNull();
        expect(await accounts.verifyKey('links', revoked.key)).toBeNull();
        await waitFor(() => heard.includes(revoked.hash));
      } finally {
        listening.disconnect();
      }
    } finally {
      await gateway.close();
    }
  });

  it('of an environment itself have no subject', async () => {
    const environment = await accounts.createEnvironment('usermgmt', 'test');
    const { key } = await accounts.createKey(environment._id);
    expect(await accounts.verifyKey('usermgmt', key)).toMatchObject({ environmentId: environment._id, subject: null });
  });
});

describe('the users of an environment', () => {
  it('are found by id or user name within their environment only, and a user name is taken once', async () => {
    const deployment = await accounts.createEnvironment('notifications', 'test');
    const other = await accounts.createEnvironment('notifications', 'other');
    const owner = await members.create(deployment._id, { username: 'ada', role: 'owner' });
    expect(owner._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await members.find(deployment._id, owner._id)).toMatchObject({ username: 'ada', role: 'owner' });
    expect(await members.find(deployment._id, 'ADA')).toMatchObject({ _id: owner._id });
    expect(await members.find(other._id, 'ada')).toBeNull();
    await expect(members.create(deployment._id, { username: 'ada', role: 'member' })).rejects.toMatchObject({
      code: 'username_taken',
    });
    await expect(members.create(other._id, { username: 'ada', role: 'member' })).resolves.toMatchObject({
      username: 'ada',
    });
    await expect(members.create(deployment._id, { username: 'Not Valid', role: 'member' })).rejects.toMatchObject({
      code: 'invalid_username',
    });
  });
});
