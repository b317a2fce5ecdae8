import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts, createMembers, type Accounts, type Members } from '@platform/accounts';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createRedis, type Redis } from '@platform/redis';
import { resolveInfra, uniqueName } from '@platform/testing';
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
