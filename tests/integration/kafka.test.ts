import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames, topicOfRecord, type CreateCorsOrigin } from '@platform/contracts';
import { ConflictError, DeadlineExceededError, InternalError, UnavailableError } from '@platform/errors';
import {
  HEADERS,
  commandGroup,
  createCommandBus,
  createCommandProcessor,
  createKafka,
  createOutboxRelay,
  createPublisher,
  ensureTopics,
  runBatchConsumer,
  runBatchedReaction,
  runConsumer,
  type ConsumerHandle,
  type KafkaClient,
  type Publisher,
} from '@platform/kafka';
import {
  connectMongo,
  createMongoCommandResultStore,
  createMongoOutboxSource,
  type MongoConnection,
} from '@platform/mongo';
import { createRedisReplyTransport } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { testLogger } from '../support/test-logger.js';
import { resolveInfra, uniqueName, waitFor } from '@platform/testing';

const infra = resolveInfra();
const logger = testLogger('kafka-test');
let kafka: KafkaClient;
let publisher: Publisher;
let mongo: MongoConnection;
const consumers: Array<Pick<ConsumerHandle, 'stop'>> = [];

const value = (n: number): CreateCorsOrigin => ({
  environment_id: 'env_1',
  cors_origin_id: `cors_origin_${n}`,
  origin: 'https://a.example.com',
});

async function readTopic(topic: string, count: number, client = kafka) {
  const seen: Array<{ headers: Record<string, string>; value: Buffer | null }> = [];
  const consumer = client.kafka.consumer({ groupId: uniqueName('reader') });
  await consumer.connect();
  await consumer.subscribe({ topic: `${client.topicPrefix}${topic}`, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
      seen.push({ headers, value: message.value });
    },
  });
  try {
    await waitFor(() => seen.length >= count, { what: `${count} messages on ${topic}`, timeoutMs: 30_000 });
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

/** The topic the bus sends CreateCorsOrigin and CreateRedirectUri on (the catalogue's). */
const COMMANDS = topicOfRecord(MessageTypeNames.CreateCorsOrigin);

/**
 * A client and command bus on a topic prefix of their own, so that each test's commands reach only the workers
 * it starts (the bus takes each command's topic from the catalogue).
 */
async function isolatedBus(name: string) {
  const client = createKafka({
    brokers: infra.kafkaBrokers.split(','),
    clientId: `kafka-test-${name}`,
    logger,
    topicPrefix: `${kafka.topicPrefix}${name}.`,
  });
  await ensureTopics(client, [{ topic: COMMANDS }, { topic: `${COMMANDS}.dlq`, partitions: 1 }]);
  const sender = createPublisher(client, { source: '/kafka-test' });
  await sender.connect();
  const bus = createCommandBus({
    publisher: sender,
    transport: createRedisReplyTransport(infra.redisUrl, { name }),
    replicaId: uniqueName('gw'),
  });
  await bus.start();
  return {
    client,
    bus,
    async stop() {
      await bus.stop();
      await sender.disconnect();
    },
  };
}

/** A group's committed offset on each partition of a topic (-1: none committed). */
async function committedOffsets(groupId: string, topic: string): Promise<Record<number, number>> {
  const admin = kafka.kafka.admin();
  await admin.connect();
  try {
    const [offsets] = await admin.fetchOffsets({
      groupId: `${kafka.topicPrefix}${groupId}`,
      topics: [`${kafka.topicPrefix}${topic}`],
    });
    return Object.fromEntries((offsets?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
  } finally {
    await admin.disconnect();
  }
}

beforeAll(async () => {
  const prefix = `${uniqueName('k')}.`;
  kafka = createKafka({ brokers: infra.kafkaBrokers.split(','), clientId: 'kafka-test', logger, topicPrefix: prefix });
  await ensureTopics(kafka, [
    { topic: 'flaky' },
    { topic: 'flaky.dlq', partitions: 1 },
    { topic: 'batched', partitions: 1 },
    { topic: 'batched.dlq', partitions: 1 },
    { topic: 'finishing', partitions: 1 },
    { topic: 'deferred', partitions: 2 },
    { topic: 'deferred.dlq', partitions: 1 },
    { topic: 'finishing.dlq', partitions: 1 },
    { topic: 'slow' },
    { topic: 'slow.dlq', partitions: 1 },
    { topic: 'events' },
    { topic: 'hinted-events' },
    { topic: 'given-events' },
    { topic: 'watched-events' },
    { topic: 'gathered-events' },
  ]);
  publisher = createPublisher(kafka, { source: '/kafka-test' });
  await publisher.connect();
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: uniqueName('kafka'), appName: 'kafka-test' });
}, 60_000);

afterAll(async () => {
  for (const c of consumers) await c.stop();
  await publisher?.disconnect();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe('commands over Kafka with replies over Redis', () => {
  it('answers the sender, runs a command once however often it is delivered, and maps domain errors', async () => {
    const calls: string[] = [];
    const processor = createCommandProcessor({
      store: createMongoCommandResultStore(mongo, { sealer: createSealer('kafka-test-sealing-key') }),
      transport: createRedisReplyTransport(infra.redisUrl, { name: 'worker' }),
      logger,
    });
    const { client, bus, stop } = await isolatedBus('replies');
    consumers.push(
      await runBatchedReaction({
        client,
        ...commandGroup({
          groupId: 'cmd-worker',
          topic: COMMANDS,
          processor,
          handlers: {
            [MessageTypeNames.CreateCorsOrigin]: async (m) => {
              calls.push(m.value.cors_origin_id);
              if (m.value.origin.includes('conflict')) throw new ConflictError('duplicate_cors_origin', 'exists');
              return { id: m.value.cors_origin_id, n: calls.length };
            },
          },
        }),
      }),
    );
    try {
      const send = (n: number, commandId: string, origin = 'https://a.example.com') =>
        bus.send(MessageTypeNames.CreateCorsOrigin, 'env_1', { ...value(n), origin }, { commandId, timeoutMs: 20_000 });
      const first = await send(1, 'cmd-1');
      const again = await send(1, 'cmd-1');
      expect(first).toEqual({ id: 'cors_origin_1', n: 1 });
      expect(again).toEqual(first);
      expect(calls).toEqual(['cors_origin_1']);
      await expect(send(2, 'cmd-2', 'https://conflict.example.com')).rejects.toBeInstanceOf(ConflictError);
      await expect(send(2, 'cmd-2', 'https://conflict.example.com')).rejects.toMatchObject({
        code: 'duplicate_cors_origin',
      });
      expect(calls).toEqual(['cors_origin_1', 'cors_origin_2']);
    } finally {
      await stop();
    }
  });

  it("handles a partition's waiting commands as a batch: one read and one write of stored replies for them all", async () => {
    const results = createMongoCommandResultStore(mongo, {
      sealer: createSealer('kafka-test-sealing-key'),
      collection: 'batched_command_results',
    });
    const processor = createCommandProcessor({
      store: results,
      transport: createRedisReplyTransport(infra.redisUrl, { name: 'batch-worker' }),
      logger,
    });
    const storeCalls: string[] = [];
    const monitor = (event: { commandName: string; command: Record<string, unknown> }) => {
      const target = event.command[event.commandName];
      if (target === 'batched_command_results') storeCalls.push(event.commandName);
    };
    mongo.getClient().on('commandStarted', monitor);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const { client, bus, stop } = await isolatedBus('batched');
    consumers.push(
      await runBatchedReaction({
        client,
        ...commandGroup({
          groupId: 'batch-worker',
          topic: COMMANDS,
          processor,
          handlers: {
            [MessageTypeNames.CreateCorsOrigin]: async (m) => {
              if (m.value.cors_origin_id === 'cors_origin_0') await gate;
              ran.push(m.value.cors_origin_id);
              return { id: m.value.cors_origin_id };
            },
          },
        }),
      }),
    );
    try {
      const send = (n: number) =>
        bus.send(MessageTypeNames.CreateCorsOrigin, 'one-key', value(n), { commandId: `b-${n}`, timeoutMs: 20_000 });
      const first = send(0);
      await waitFor(() => storeCalls.length >= 1, { what: "the first command's stored-reply read" });
      // Sent while the first command is held: they wait in the partition and come in the next fetch together.
      const rest = [1, 2, 3, 4, 5].map(send);
      await sleep(500);
      storeCalls.length = 0;
      release();
      expect(await first).toEqual({ id: 'cors_origin_0' });
      expect(await Promise.all(rest)).toEqual([1, 2, 3, 4, 5].map((n) => ({ id: `cors_origin_${n}` })));
      // The first batch's reply write, then the five: one read and one write.
      await waitFor(() => storeCalls.length >= 3 && storeCalls, { what: 'the stored replies written' });
      expect(storeCalls).toEqual(['insert', 'find', 'insert']);
      expect(ran).toEqual([0, 1, 2, 3, 4, 5].map((n) => `cors_origin_${n}`));
      expect((await results.getMany(['b-3']))[0]).toEqual({ ok: true, result: { id: 'cors_origin_3' } });
      // A command sent again is answered from its stored reply.
      expect(await send(3)).toEqual({ id: 'cors_origin_3' });
      expect(ran).toHaveLength(6);
    } finally {
      mongo.getClient().off('commandStarted', monitor);
      await stop();
    }
  });

  it('fails with a deadline error when no worker answers in time', async () => {
    const { bus, stop } = await isolatedBus('nowhere');
    try {
      const started = Date.now();
      await expect(
        bus.send(MessageTypeNames.CreateCorsOrigin, 'x', value(9), { timeoutMs: 500 }),
      ).rejects.toBeInstanceOf(DeadlineExceededError);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(bus.pending()).toBe(0);
    } finally {
      await stop();
    }
  });
});

describe('a command nobody handles', () => {
  it('is dead-lettered and answered at once with a rejection, not left to time out', async () => {
    const processor = createCommandProcessor({
      store: createMongoCommandResultStore(mongo, { sealer: createSealer('kafka-test-sealing-key') }),
      transport: createRedisReplyTransport(infra.redisUrl, { name: 'unhandled-worker' }),
      logger,
    });
    const { client, bus, stop } = await isolatedBus('unhandled');
    consumers.push(
      await runBatchedReaction({
        client,
        ...commandGroup({
          groupId: 'unhandled-worker',
          topic: COMMANDS,
          processor,
          handlers: { [MessageTypeNames.CreateCorsOrigin]: async () => ({ ok: true }) },
        }),
      }),
    );
    try {
      const started = Date.now();
      const unhandled = bus.send(
        MessageTypeNames.CreateRedirectUri,
        'env_1',
        { environment_id: 'env_1', redirect_uri_id: 'redirect_uri_1', uri: 'https://a.example.com/cb' },
        { timeoutMs: 20_000 },
      );
      await expect(unhandled).rejects.toBeInstanceOf(InternalError);
      expect(Date.now() - started).toBeLessThan(10_000);
      const [dead] = await readTopic(`${COMMANDS}.dlq`, 1, client);
      expect(dead?.headers[HEADERS.error]).toBe(
        `no handler for ${MessageTypeNames.CreateRedirectUri} in unhandled-worker`,
      );
      expect(dead?.headers[HEADERS.type]).toBe(MessageTypeNames.CreateRedirectUri);
      // the group goes on with the commands it handles
      await expect(
        bus.send(MessageTypeNames.CreateCorsOrigin, 'env_1', value(3), { timeoutMs: 20_000 }),
      ).resolves.toEqual({ ok: true });
    } finally {
      await stop();
    }
  });
});

/** A group over `topic` that tries a message three times, 20 ms apart, and notes the ids it dead-letters. */
function retryingGroup(groupId: string, topic: string, deadLettered: string[]) {
  return {
    client: kafka,
    groupId,
    topics: [topic],
    maxAttempts: 3,
    backoffBaseMs: 20,
    onDeadLetter: async (meta: { id: string } | undefined) => void deadLettered.push(meta?.id ?? 'none'),
  };
}

/** A message that is not ours at all (no headers, not Avro). */
async function publishGarbage(topic: string) {
  const raw = kafka.kafka.producer();
  await raw.connect();
  await raw.send({ topic: `${kafka.topicPrefix}${topic}`, messages: [{ key: 'a', value: 'garbage' }] });
  await raw.disconnect();
}

describe('consumer retries and dead letters', () => {
  it('retries transient failures, then dead-letters what keeps failing and tells the sender', async () => {
    const attempts = new Map<string, number>();
    const deadLettered: string[] = [];
    consumers.push(
      await runConsumer({
        ...retryingGroup('flaky-worker', 'flaky', deadLettered),
        handlers: {
          [MessageTypeNames.CreateCorsOrigin]: async (m) => {
            const n = (attempts.get(m.value.cors_origin_id) ?? 0) + 1;
            attempts.set(m.value.cors_origin_id, n);
            if (m.value.cors_origin_id === 'cors_origin_transient' && n < 3)
              throw new UnavailableError('mongo_down', 'try later');
            if (m.value.cors_origin_id === 'cors_origin_poison') throw new Error('always broken');
          },
        },
      }),
    );
    await publisher.publish({
      topic: 'flaky',
      key: 'a',
      type: MessageTypeNames.CreateCorsOrigin,
      value: { ...value(0), cors_origin_id: 'cors_origin_transient' },
    });
    const poisonId = await publisher.publish({
      topic: 'flaky',
      key: 'a',
      type: MessageTypeNames.CreateCorsOrigin,
      value: { ...value(0), cors_origin_id: 'cors_origin_poison' },
    });
    // A message that is not ours at all (no headers, not Avro) must not stop the partition.
    await publishGarbage('flaky');
    await publisher.publish({
      topic: 'flaky',
      key: 'a',
      type: MessageTypeNames.CreateCorsOrigin,
      value: { ...value(0), cors_origin_id: 'cors_origin_after' },
    });

    await waitFor(() => attempts.get('cors_origin_after') === 1, { what: 'the message after the poison one' });
    expect(attempts.get('cors_origin_transient')).toBe(3);
    expect(attempts.get('cors_origin_poison')).toBe(3);
    const dlq = await readTopic('flaky.dlq', 2);
    expect(dlq.map((m) => m.headers[HEADERS.error])).toEqual([
      'Error: always broken',
      'missing ce_* headers or empty body',
    ]);
    expect(dlq[0]?.headers[HEADERS.id]).toBe(poisonId);
    expect(dlq[0]?.headers[HEADERS.attempt]).toBe('3');
    expect(deadLettered).toEqual([poisonId, 'none']);
  });

  it('runs a batched reaction in offset order, retrying from the failing message and dead-lettering only the bad ones', async () => {
    const ids = ['before', 'transient', 'poison', 'after'].map((name) => `cors_origin_${name}`);
    // Published before the group starts, so that all of them arrive in one batch.
    const published: string[] = [];
    for (const id of ids.slice(0, 3))
      published.push(
        await publisher.publish({
          topic: 'batched',
          key: 'a',
          type: MessageTypeNames.CreateCorsOrigin,
          value: { ...value(0), cors_origin_id: id },
        }),
      );
    await publishGarbage('batched');
    await publisher.publish({
      topic: 'batched',
      key: 'a',
      type: MessageTypeNames.CreateCorsOrigin,
      value: { ...value(0), cors_origin_id: ids[3]! },
    });
    const calls: string[] = [];
    const deadLettered: string[] = [];
    consumers.push(
      await runBatchedReaction({
        ...retryingGroup('batched-worker', 'batched', deadLettered),
        handlers: {
          [MessageTypeNames.CreateCorsOrigin]: async (m) => {
            const id = m.value.cors_origin_id;
            calls.push(id);
            if (id === 'cors_origin_transient' && calls.filter((c) => c === id).length < 3)
              throw new UnavailableError('mongo_down', 'try later');
            if (id === 'cors_origin_poison') throw new ConflictError('always_broken', 'always broken');
          },
        },
      }),
    );
    await waitFor(() => calls.includes('cors_origin_after'), { what: 'the message after the poison one' });
    // A retry resumes at the failing message; a non-retriable error is not retried at all.
    expect(calls).toEqual([
      'cors_origin_before',
      'cors_origin_transient',
      'cors_origin_transient',
      'cors_origin_transient',
      'cors_origin_poison',
      'cors_origin_after',
    ]);
    const dlq = await readTopic('batched.dlq', 2);
    expect(dlq.map((m) => m.headers[HEADERS.error]).sort()).toEqual([
      'ConflictError: always broken',
      'missing ce_* headers or empty body',
    ]);
    const poison = dlq.find((m) => m.headers[HEADERS.id] === published[2]);
    expect(poison?.headers[HEADERS.attempt]).toBe('1');
    expect(deadLettered).toEqual([published[2]]);
  });

  it('reads on while a batch finishes its writes, and commits the batch only once they have landed', async () => {
    const groupId = 'finishing-worker';
    const committed = async () => (await committedOffsets(groupId, 'finishing'))[0] ?? -1;
    const seen: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstFinishes = 0;
    const finished: string[] = [];
    consumers.push(
      await runBatchConsumer({
        client: kafka,
        groupId,
        topics: ['finishing'],
        types: [MessageTypeNames.CreateCorsOrigin],
        backoffBaseMs: 20,
        handle: async (batch) => {
          const ids = batch.messages.map((m) => m.value.cors_origin_id);
          seen.push(...ids);
          return {
            finish: async () => {
              if (ids.includes('cors_origin_first')) {
                // Fails once (retried), then waits for the test.
                if (++firstFinishes === 1) throw new UnavailableError('store_down', 'try later');
                await gate;
              }
              finished.push(...ids);
            },
          };
        },
      }),
    );
    await publisher.publish({
      topic: 'finishing',
      key: 'a',
      type: MessageTypeNames.CreateCorsOrigin,
      value: { ...value(0), cors_origin_id: 'cors_origin_first' },
    });
    await waitFor(() => firstFinishes === 2, { what: 'the first finish retried' });
    // The partition is read on while the first batch's writes are under way; nothing is committed yet.
    await publisher.publish({
      topic: 'finishing',
      key: 'a',
      type: MessageTypeNames.CreateCorsOrigin,
      value: { ...value(0), cors_origin_id: 'cors_origin_second' },
    });
    await waitFor(() => seen.includes('cors_origin_second'), { what: 'the second batch handed on' });
    await sleep(300); // room for a wrong early commit, or the second finish run before the first, to show
    expect(finished).toEqual([]);
    expect(await committed()).toBe(-1);
    // Once the first lands, both commit, in order.
    release();
    await waitFor(async () => (await committed()) === 2, { what: 'both batches committed' });
    expect(finished).toEqual(['cors_origin_first', 'cors_origin_second']);
  });

  it("commits a batched reaction's handled batches together, once per interval, and what is left when it stops", async () => {
    const committed = (groupId: string) => committedOffsets(groupId, 'deferred');
    const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const [n, key] of keys.entries())
      await publisher.publish({ topic: 'deferred', key, type: MessageTypeNames.CreateCorsOrigin, value: value(n) });
    const handled: string[] = [];
    const reaction = (groupId: string, commitIntervalMs: number) =>
      runBatchedReaction({
        client: kafka,
        groupId,
        topics: ['deferred'],
        fromBeginning: true,
        commitIntervalMs,
        fetchMaxWaitMs: 10,
        handlers: {
          [MessageTypeNames.CreateCorsOrigin]: async (m) => void handled.push(`${groupId}/${m.value.cors_origin_id}`),
        },
      });
    const admin = kafka.kafka.admin();
    await admin.connect();
    // What a group that has handled everything commits: each partition's end (none for an empty one).
    const ends = Object.fromEntries(
      (await admin.fetchTopicOffsets(`${kafka.topicPrefix}deferred`)).map((p) => [
        p.partition,
        Number(p.offset) > 0 ? Number(p.offset) : -1,
      ]),
    );
    await admin.disconnect();
    expect(Object.values(ends).filter((end) => end > 0).length).toBe(2); // the keys fall on both partitions

    // An interval longer than the test: nothing is committed while it runs, everything once it stops.
    const slow = await reaction('deferred-slow', 600_000);
    consumers.push(slow);
    await waitFor(() => handled.filter((h) => h.startsWith('deferred-slow/')).length === keys.length, {
      what: 'every message handled',
    });
    await sleep(300);
    expect(await committed('deferred-slow')).toEqual({ 0: -1, 1: -1 });
    await slow.stop();
    expect(await committed('deferred-slow')).toEqual(ends);

    // A short interval: both partitions committed without stopping.
    consumers.push(await reaction('deferred-quick', 100));
    await waitFor(async () => JSON.stringify(await committed('deferred-quick')) === JSON.stringify(ends) || undefined, {
      what: 'both partitions committed',
      timeoutMs: 20_000,
    });
    expect(handled.filter((h) => h.startsWith('deferred-quick/'))).toHaveLength(keys.length);
  });

  it('keeps a handler that runs longer than the session timeout in the group (heartbeats)', async () => {
    let runs = 0;
    consumers.push(
      await runConsumer({
        client: kafka,
        groupId: 'slow-worker',
        topics: ['slow'],
        sessionTimeoutMs: 6000,
        heartbeatIntervalMs: 1000,
        handlers: {
          [MessageTypeNames.CreateCorsOrigin]: async () => {
            runs++;
            await sleep(9000);
          },
        },
      }),
    );
    await publisher.publish({ topic: 'slow', key: 'a', type: MessageTypeNames.CreateCorsOrigin, value: value(1) });
    await publisher.publish({ topic: 'slow', key: 'a', type: MessageTypeNames.CreateCorsOrigin, value: value(2) });
    await waitFor(() => runs >= 2, { what: 'second slow message', timeoutMs: 40_000 });
    await sleep(1500);
    expect(runs).toBe(2);
  }, 60_000);
});

describe('topics', () => {
  it('leaves a topic with fewer partitions than asked for as it is, and says so', async () => {
    await ensureTopics(kafka, [{ topic: 'narrow', partitions: 2 }]);
    const warned: unknown[] = [];
    const logger = {
      debug: () => undefined,
      warn: (fields: unknown, message: string) => void warned.push({ fields, message }),
    };
    await ensureTopics({ ...kafka, logger } as unknown as KafkaClient, [{ topic: 'narrow', partitions: 4 }]);
    const admin = kafka.kafka.admin();
    await admin.connect();
    const metadata = await admin.fetchTopicMetadata({ topics: [`${kafka.topicPrefix}narrow`] });
    await admin.disconnect();
    expect(metadata.topics[0]?.partitions).toHaveLength(2);
    expect(warned).toEqual([
      {
        fields: { topic: `${kafka.topicPrefix}narrow`, partitions: 2, catalogue: 4 },
        message: 'topic has fewer partitions than the catalogue asks for; see docs/operations.md',
      },
    ]);
  });
});

describe('outbox relay', () => {
  it('publishes events stored with a change under their stored id, once', async () => {
    const collection = mongo.db!.collection('outbox_test');
    await collection.insertOne({
      _id: 'agg_1' as never,
      has_outbox: true,
      outbox: [
        {
          id: 'evt-1',
          topic: 'events',
          key: 'agg_1',
          type: MessageTypeNames.CorsOriginCreated,
          value: { environment_id: 'e', cors_origin_id: 'c', origin: 'https://o.example.com', created_at: 1 },
          created_at: new Date(),
        },
      ],
    });
    const relay = createOutboxRelay({ publisher, sources: [createMongoOutboxSource(collection)], logger });
    expect(await relay.flush()).toBe(1);
    expect(await relay.flush()).toBe(0);
    const doc = await collection.findOne({ _id: 'agg_1' as never });
    expect(doc?.['outbox']).toEqual([]);
    expect(doc?.['has_outbox']).toBe(false);
    const [message] = await readTopic('events', 1);
    expect(message?.headers[HEADERS.id]).toBe('evt-1');
    expect(message?.headers[HEADERS.type]).toBe(MessageTypeNames.CorsOriginCreated);
  });

  it('acknowledges many documents in one store write, and keeps what was appended to one meanwhile', async () => {
    const collection = mongo.db!.collection('outbox_many');
    const entry = (id: string) => ({
      id,
      topic: 'events',
      key: id,
      type: MessageTypeNames.CorsOriginCreated,
      value: { environment_id: 'e', cors_origin_id: 'c', origin: 'https://o.example.com', created_at: 1 },
      created_at: new Date(),
    });
    const docs = ['m1', 'm2', 'm3'].map((id) => ({ docId: id, entries: [entry(`${id}-a`)] }));
    await collection.insertMany(docs.map((d) => ({ _id: d.docId as never, has_outbox: true, outbox: d.entries })));
    const source = createMongoOutboxSource(collection);
    await source.acknowledgeMany(docs);
    expect(await collection.countDocuments({ has_outbox: true })).toBe(0);

    await collection.updateMany({}, { $set: { has_outbox: true } });
    await collection.updateOne({ _id: 'm1' as never }, { $set: { outbox: docs[0]!.entries } });
    await collection.updateOne({ _id: 'm2' as never }, { $set: { outbox: [...docs[1]!.entries, entry('m2-b')] } });
    await source.acknowledgeMany(docs.slice(0, 2));
    expect(await collection.findOne({ _id: 'm1' as never })).toMatchObject({ outbox: [], has_outbox: false });
    const m2 = await collection.findOne({ _id: 'm2' as never });
    expect((m2?.['outbox'] as Array<{ id: string }>).map((e) => e.id)).toEqual(['m2-b']);
    expect(m2?.['has_outbox']).toBe(true);
  });

  it('publishes a hinted document by its id, without scanning the collection', async () => {
    const collection = mongo.db!.collection('outbox_hinted');
    const entry = (id: string) => ({
      id,
      topic: 'hinted-events',
      key: 'agg_h',
      type: MessageTypeNames.CorsOriginCreated,
      value: { environment_id: 'e', cors_origin_id: 'c', origin: 'https://o.example.com', created_at: 1 },
      created_at: new Date(),
    });
    await collection.insertOne({ _id: 'agg_h' as never, has_outbox: true, outbox: [entry('evt-h1')] });
    const source = createMongoOutboxSource(collection);
    let scans = 0;
    const counted = { ...source, pending: (limit: number) => (scans++, source.pending(limit)) };
    const relay = createOutboxRelay({ publisher, sources: [counted], logger });
    relay.wake([{ source: source.name, docId: 'agg_h' }]);
    const [message] = await readTopic('hinted-events', 1);
    expect(message?.headers[HEADERS.id]).toBe('evt-h1');
    await waitFor(
      async () => ((await collection.findOne({ _id: 'agg_h' as never }))?.['has_outbox'] === false ? true : undefined),
      { what: 'outbox cleared' },
    );
    expect(scans).toBe(0);
    await relay.stop();
  });

  it('publishes the entries a hint hands it without reading the document, once, and clears its outbox', async () => {
    const collection = mongo.db!.collection('outbox_given');
    const entry = {
      id: 'evt-g1',
      topic: 'given-events',
      key: 'agg_g',
      type: MessageTypeNames.CorsOriginCreated,
      value: { environment_id: 'e', cors_origin_id: 'c', origin: 'https://o.example.com', created_at: 1 },
      headers: {},
      created_at: new Date(),
    };
    await collection.insertOne({ _id: 'agg_g' as never, has_outbox: true, outbox: [entry] });
    const source = createMongoOutboxSource(collection);
    let reads = 0;
    const counted = { ...source, pendingIn: (ids: string[]) => (reads++, source.pendingIn(ids)) };
    const relay = createOutboxRelay({ publisher, sources: [counted], logger });
    relay.wake([{ source: source.name, docId: 'agg_g', entries: [entry] }]);
    await waitFor(
      async () => ((await collection.findOne({ _id: 'agg_g' as never }))?.['has_outbox'] === false ? true : undefined),
      { what: 'outbox cleared' },
    );
    expect(reads).toBe(0);
    expect(await relay.flush()).toBe(0);
    await relay.stop();
    // Every publish has returned by now (the outbox is acknowledged only after it): the topic holds all there is.
    const admin = kafka.kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(`${kafka.topicPrefix}given-events`).finally(() => admin.disconnect());
    expect(ends.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0)).toBe(1);
    const [message] = await readTopic('given-events', 1);
    expect(message?.headers[HEADERS.id]).toBe('evt-g1');
  });

  it('acknowledges documents hinted one at a time in one store write, and what is left when it stops', async () => {
    const collection = mongo.db!.collection('outbox_gathered');
    const entry = (id: string) => ({
      id,
      topic: 'gathered-events',
      key: id,
      type: MessageTypeNames.CorsOriginCreated,
      value: { environment_id: 'e', cors_origin_id: 'c', origin: 'https://o.example.com', created_at: 1 },
      headers: {},
      created_at: new Date(),
    });
    const source = createMongoOutboxSource(collection);
    const writes: string[][] = [];
    const counted = {
      ...source,
      acknowledge: (docId: string, entries: unknown[]) => (writes.push([docId]), source.acknowledge(docId, entries)),
      acknowledgeMany: (docs: Array<{ docId: string; entries: unknown[] }>) => (
        writes.push(docs.map((d) => d.docId)),
        source.acknowledgeMany(docs)
      ),
    };
    const sent: string[] = [];
    const counting: Publisher = {
      ...publisher,
      publishMany: async (messages) => {
        const ids = await publisher.publishMany(messages);
        sent.push(...messages.map((m) => m.id!));
        return ids;
      },
    };
    const relay = createOutboxRelay({ publisher: counting, sources: [counted], logger, ackGatherMs: 2_000 });
    const ids = ['g1', 'g2', 'g3', 'g4'];
    for (const id of ids) {
      const entries = [entry(id)];
      await collection.insertOne({ _id: id as never, has_outbox: true, outbox: entries });
      relay.wake([{ source: source.name, docId: id, entries }]);
      // Each document's event is out before the next is written, as a partition's commands are handled.
      await waitFor(() => sent.includes(id), { what: `${id} published` });
    }
    // Published and waiting: the sweep leaves them to the acknowledgement that holds them.
    expect(await relay.flush()).toBe(0);
    await waitFor(async () => ((await collection.countDocuments({ has_outbox: true })) === 0 ? true : undefined), {
      what: 'outboxes cleared',
      timeoutMs: 5_000,
    });
    expect(writes).toEqual([ids]);

    const last = [entry('g5')];
    await collection.insertOne({ _id: 'g5' as never, has_outbox: true, outbox: last });
    relay.wake([{ source: source.name, docId: 'g5', entries: last }]);
    await waitFor(() => sent.includes('g5'), { what: 'g5 published' });
    await relay.stop();
    expect(writes).toEqual([ids, ['g5']]);
    expect(await collection.findOne({ _id: 'g5' as never })).toMatchObject({ outbox: [], has_outbox: false });
  });

  it('hears of outbox writes from the store client: publishes what an insert or a push stored, without reading', async () => {
    const collection = mongo.db!.collection('outbox_watched');
    const entry = (id: string) => ({
      id,
      topic: 'watched-events',
      key: 'agg_w',
      type: MessageTypeNames.CorsOriginCreated,
      value: { environment_id: 'e', cors_origin_id: 'c', origin: 'https://o.example.com', created_at: 1 },
      headers: {},
      created_at: new Date(),
    });
    const source = createMongoOutboxSource(collection);
    let reads = 0;
    const counted = {
      ...source,
      pending: (limit: number) => (reads++, source.pending(limit)),
      pendingIn: (ids: string[]) => (reads++, source.pendingIn(ids)),
    };
    // One sweep at start, then none for an hour: the writes alone must bring the relay.
    const relay = createOutboxRelay({ publisher, sources: [counted], logger, intervalMs: 3_600_000 });
    relay.start();
    await waitFor(() => reads > 0, { what: 'the sweep at start' });
    await relay.flush();
    reads = 0;
    await collection.insertOne({ _id: 'agg_w' as never, has_outbox: true, outbox: [entry('evt-w1')] });
    const cleared = () =>
      waitFor(
        async () =>
          (await collection.findOne({ _id: 'agg_w' as never }))?.['has_outbox'] === false ? true : undefined,
        { what: 'outbox cleared' },
      );
    await cleared();
    // A compare-and-set that lost stores nothing, and nothing is published for it.
    await collection.updateOne({ _id: 'agg_w' as never, version: 7 }, {
      $set: { has_outbox: true },
      $push: { outbox: { $each: [entry('evt-lost')] } },
    } as never);
    await collection.updateOne({ _id: 'agg_w' as never }, {
      $set: { has_outbox: true },
      $push: { outbox: { $each: [entry('evt-w2')] } },
    } as never);
    await cleared();
    expect(reads).toBe(0);
    await relay.stop();
    const admin = kafka.kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(`${kafka.topicPrefix}watched-events`).finally(() => admin.disconnect());
    expect(ends.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0)).toBe(2);
    const ids = (await readTopic('watched-events', 2)).map((m) => m.headers[HEADERS.id]);
    expect(ids).toEqual(['evt-w1', 'evt-w2']);
  });
});
