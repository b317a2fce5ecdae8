import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueKeyViolation, toPlatformError } from '@platform/errors';
import {
  connectMongo,
  defineModel,
  insertValidated,
  isDuplicateKeyError,
  outboxSchemaFields,
  Schema,
  watchOutboxWrites,
  type MongoConnection,
} from '@platform/mongo';
import { resolveInfra, uniqueName } from '@platform/testing';

// insertValidated: inserts into one collection made while one is in flight share the next round trip, and each
// caller still learns its own outcome (a worker's partitions insert side by side; issue 41).
let mongo: MongoConnection;
let dbName: string;
const inserts: number[] = [];

interface Account {
  _id: string;
  email: string;
  plan: string;
  has_outbox?: boolean;
  outbox?: unknown[];
}

const schema = new Schema<Account>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    plan: { type: String, enum: ['free', 'pro'], default: 'free' },
    ...outboxSchemaFields,
  },
  { versionKey: false },
);

const failureOf = (write: Promise<unknown>) =>
  write.then(
    () => null,
    (error: unknown) => error,
  );

beforeAll(async () => {
  const infra = resolveInfra();
  dbName = uniqueName('joined');
  mongo = await connectMongo({ url: infra.mongoUrl, dbName, appName: dbName });
  mongo.getClient().on('commandStarted', (event) => {
    if (event.commandName === 'insert' && event.command['insert'] === 'accounts') {
      inserts.push((event.command['documents'] as unknown[]).length);
    }
  });
  await defineModel(mongo, 'Account', schema).collection.createIndex({ email: 1 }, { unique: true });
}, 60_000);

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe('insertValidated', () => {
  it('joins concurrent inserts into fewer commands, each caller with its own outcome', async () => {
    const Account = defineModel(mongo, 'Account', schema);
    await insertValidated(Account, { _id: 'a-0', email: 'taken@example.com' });
    inserts.length = 0;

    const outcomes = await Promise.all([
      failureOf(insertValidated(Account, { _id: 'a-1', email: 'one@example.com' })),
      failureOf(insertValidated(Account, { _id: 'a-2', email: 'two@example.com', plan: 'pro' })),
      failureOf(insertValidated(Account, { _id: 'a-0', email: 'replayed@example.com' })), // a taken _id
      failureOf(insertValidated(Account, { _id: 'a-3', email: 'taken@example.com' })), // a taken email
      failureOf(insertValidated(Account, { _id: 'a-4', email: 'twice@example.com' })),
      failureOf(insertValidated(Account, { _id: 'a-5', email: 'twice@example.com' })), // taken by a-4 just now
      failureOf(insertValidated(Account, { _id: 'a-6', email: 'bad@example.com', plan: 'gold' })), // invalid
      failureOf(insertValidated(Account, { _id: 'a-7', email: 'seven@example.com' })),
    ]);

    expect(
      outcomes.map((outcome) => (outcome === null ? 'inserted' : isDuplicateKeyError(outcome) ? 409 : 400)),
    ).toEqual(['inserted', 'inserted', 409, 409, 'inserted', 409, 400, 'inserted']);
    // A taken key is the conflict a handler answers with (409), never a retry.
    for (const conflict of [outcomes[2], outcomes[3], outcomes[5]]) {
      expect(isUniqueKeyViolation(conflict)).toBe(true);
      expect(toPlatformError(conflict)).toMatchObject({ kind: 'conflict', retriable: false });
    }
    expect((outcomes[6] as Error).name).toBe('ValidationError');

    const stored = await Account.find().sort({ _id: 1 }).select({ outbox: 0, has_outbox: 0 }).lean();
    expect(stored).toEqual([
      { _id: 'a-0', email: 'taken@example.com', plan: 'free' },
      { _id: 'a-1', email: 'one@example.com', plan: 'free' },
      { _id: 'a-2', email: 'two@example.com', plan: 'pro' },
      { _id: 'a-4', email: 'twice@example.com', plan: 'free' },
      { _id: 'a-7', email: 'seven@example.com', plan: 'free' },
    ]);
    // Eight inserts, seven of them valid, in at most two commands (the first may go alone, the rest join it).
    expect(inserts.reduce((sum, n) => sum + n, 0)).toBe(7);
    expect(inserts.length).toBeLessThanOrEqual(2);
  });

  it('tells the outbox relay of exactly the documents a joined insert stored', async () => {
    const Account = defineModel(mongo, 'Account', schema);
    const announced: string[] = [];
    const stop = watchOutboxWrites(dbName, 'accounts', (docId) => docId && announced.push(docId));
    const event = (id: string) => ({
      id,
      topic: 'accounts',
      type: 'account.created',
      key: id,
      value: {},
      created_at: new Date(),
    });
    try {
      await Promise.all([
        insertValidated(Account, { _id: 'b-1', email: 'b1@example.com', has_outbox: true, outbox: [event('e-1')] }),
        insertValidated(Account, { _id: 'b-2', email: 'b2@example.com', has_outbox: true, outbox: [event('e-2')] }),
        failureOf(
          insertValidated(Account, { _id: 'b-3', email: 'b1@example.com', has_outbox: true, outbox: [event('e-3')] }),
        ),
        insertValidated(Account, { _id: 'b-4', email: 'b4@example.com', has_outbox: true, outbox: [event('e-4')] }),
      ]);
    } finally {
      stop();
    }
    expect(announced.sort()).toEqual(['b-1', 'b-2', 'b-4']);
  });
});
