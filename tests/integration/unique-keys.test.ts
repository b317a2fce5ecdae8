import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccounts, createMembers } from '@platform/accounts';
import { createAnalyticsWriter } from '@platform/analytics';
import { isUniqueKeyViolation, toPlatformError } from '@platform/errors';
import { createUserDirectory } from '@platform/identity';
import { createCompressionCounts } from '@platform/images';
import { createLinksStore } from '@platform/links';
import { connectMongo, createMongoCommandResultStore, type MongoConnection } from '@platform/mongo';
import { createNotificationsStore } from '@platform/notifications';
import { createOAuthStore } from '@platform/oauth';
import { createRedis, type Redis } from '@platform/redis';
import { createSchedulingStore } from '@platform/scheduling';
import { resolveInfra, uniqueName } from '@platform/testing';
import { createUsermgmtStore } from '@platform/usermgmt';
import { createDeliveryStore } from '@platform/webhooks';
import { TEST_SECRETS } from '../support/secrets.js';

let mongo: MongoConnection;
let redis: Redis;

const sealer = { seal: (s: string) => s, open: (s: string) => s };

beforeAll(async () => {
  const infra = resolveInfra();
  const name = uniqueName('uniq');
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  redis = createRedis(infra.redisUrl, { name, lazy: true });
  // Every store of the platform with its indexes, as its service makes them on start.
  const stores = [
    createAccounts({ connection: mongo, redis, pepper: TEST_SECRETS.API_KEY_PEPPER }),
    createMembers(mongo),
    createAnalyticsWriter(mongo),
    createUserDirectory(mongo),
    createCompressionCounts(mongo),
    createLinksStore(mongo),
    createMongoCommandResultStore(mongo, { sealer }),
    createNotificationsStore(mongo),
    createOAuthStore(mongo),
    createSchedulingStore(mongo),
    createUsermgmtStore(mongo),
    createDeliveryStore(mongo),
  ];
  for (const store of stores) await store.ensureIndexes();
}, 120_000);

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
  redis?.disconnect();
});

async function uniqueIndexes() {
  const found: Array<{ collection: string; name: string; keys: string[] }> = [];
  for (const { name: collection } of await mongo.db!.listCollections().toArray()) {
    for (const index of await mongo.db!.collection(collection).indexes()) {
      if (!index.unique || index.name === '_id_') continue;
      // A partial unique index needs documents inside its filter: teach this test its filter when one appears.
      expect(index.partialFilterExpression, `${collection}.${index.name}`).toBeUndefined();
      found.push({ collection, name: index.name!, keys: Object.keys(index.key) });
    }
  }
  return found;
}

const failureOf = (write: Promise<unknown>) =>
  write.then(
    () => null,
    (error: unknown) => error,
  );

describe('unique keys', () => {
  it('turn every duplicate, inserted or updated into place, into a conflict (409), never a retry', async () => {
    const indexes = await uniqueIndexes();
    // The platform's unique indexes: a new one is covered here without a change to this test.
    expect(indexes.length).toBeGreaterThanOrEqual(10);
    for (const { collection, name, keys } of indexes) {
      const col = mongo.db!.collection<Record<string, unknown>>(collection);
      const values = (v: string) => Object.fromEntries(keys.map((k) => [k, `${v}-${name}`]));
      await col.insertOne({ _id: `${name}-1` as never, ...values('taken') });
      const inserted = await failureOf(col.insertOne({ _id: `${name}-2` as never, ...values('taken') }));
      await col.insertOne({ _id: `${name}-3` as never, ...values('free') });
      // FerretDB answers an update that makes two documents collide differently from an insert.
      const updated = await failureOf(col.updateOne({ _id: `${name}-3` as never }, { $set: values('taken') }));
      for (const [how, error] of [
        ['insert', inserted],
        ['update', updated],
      ] as const) {
        expect(isUniqueKeyViolation(error), `${how} into ${collection}.${name}`).toBe(true);
        expect(toPlatformError(error), `${how} into ${collection}.${name}`).toMatchObject({
          kind: 'conflict',
          retriable: false,
        });
      }
    }
  });
});
