import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames, type CreateCorsOrigin } from '@platform/contracts';
import {
  createKafka,
  createPublisher,
  ensureTopics,
  listDeadLetters,
  replayDeadLetters,
  runConsumer,
  type ConsumerHandle,
  type KafkaClient,
  type Publisher,
} from '@platform/kafka';
import { testLogger } from '../support/test-logger.js';
import { resolveInfra, uniqueName, waitFor } from '@platform/testing';

// docs/operations.md, "Replay a dead-letter topic": what `cli dlq list|replay` does, against the real broker.
const infra = resolveInfra();
const logger = testLogger('dlq-replay-test');
let kafka: KafkaClient;
let publisher: Publisher;
let consumer: ConsumerHandle | undefined;

const origin = (id: string): CreateCorsOrigin => ({
  environment_id: 'env_1',
  cors_origin_id: id,
  origin: 'https://a.example.com',
});

beforeAll(async () => {
  kafka = createKafka({
    brokers: infra.kafkaBrokers.split(','),
    clientId: 'dlq-replay-test',
    logger,
    topicPrefix: `${uniqueName('dlq')}.`,
  });
  await ensureTopics(kafka, [{ topic: 'orders' }, { topic: 'orders.dlq', partitions: 1 }]);
  publisher = createPublisher(kafka, { source: '/dlq-replay-test' });
  await publisher.connect();
}, 60_000);

afterAll(async () => {
  await consumer?.stop();
  await publisher?.disconnect();
});

describe('dead-letter replay', () => {
  it('lists the dead letters, publishes them again as they were, and only once', async () => {
    // The store is "down" for the first messages: they fail and are dead-lettered, the consumer goes on.
    let storeUp = false;
    const applied: Array<{ id: string; origin: string; error: string | undefined }> = [];
    consumer = await runConsumer({
      client: kafka,
      groupId: 'orders-worker',
      topics: ['orders'],
      maxAttempts: 2,
      backoffBaseMs: 10,
      handlers: {
        [MessageTypeNames.CreateCorsOrigin]: async (m) => {
          if (!storeUp && m.value.cors_origin_id !== 'cors_origin_ok') throw new Error('store unreachable');
          applied.push({ id: m.meta.id, origin: m.value.cors_origin_id, error: m.meta.raw['error'] });
        },
      },
    });
    await consumer.ready;
    const failedIds = [
      await publisher.publish({
        topic: 'orders',
        key: 'k1',
        type: MessageTypeNames.CreateCorsOrigin,
        value: origin('cors_origin_1'),
      }),
      await publisher.publish({
        topic: 'orders',
        key: 'k2',
        type: MessageTypeNames.CreateCorsOrigin,
        value: origin('cors_origin_2'),
      }),
    ];
    await publisher.publish({
      topic: 'orders',
      key: 'k3',
      type: MessageTypeNames.CreateCorsOrigin,
      value: origin('cors_origin_ok'),
    });
    await waitFor(() => applied.some((a) => a.origin === 'cors_origin_ok'), {
      what: 'the message after the failing ones',
    });
    // The three keys may sit in different partitions: the good one can be applied before the others have failed.
    const letters = await waitFor(
      async () => {
        const listed = await listDeadLetters(kafka, { topic: 'orders' });
        return listed.length >= 2 && listed;
      },
      { what: 'both failing messages dead-lettered' },
    );
    expect(letters.map((l) => [l.id, l.key, l.type, l.error, l.attempts])).toEqual([
      [failedIds[0], 'k1', MessageTypeNames.CreateCorsOrigin, 'Error: store unreachable', '2'],
      [failedIds[1], 'k2', MessageTypeNames.CreateCorsOrigin, 'Error: store unreachable', '2'],
    ]);
    // Listing consumed nothing: the replay still finds both.
    storeUp = true;
    const replayedIds: string[] = [];
    expect(await replayDeadLetters(kafka, { topic: 'orders', onReplay: (l) => replayedIds.push(l.id ?? '') })).toEqual({
      replayed: 2,
      skipped: 0,
    });
    expect(replayedIds).toEqual(failedIds);
    await waitFor(() => applied.length === 3, { what: 'the replayed messages applied' });
    // Same event ids as first published, without the dead-letter headers.
    expect(applied.slice(1)).toEqual([
      { id: failedIds[0], origin: 'cors_origin_1', error: undefined },
      { id: failedIds[1], origin: 'cors_origin_2', error: undefined },
    ]);

    // A second run has nothing new to publish; a new dead letter is replayed alone.
    expect(await replayDeadLetters(kafka, { topic: 'orders' })).toEqual({ replayed: 0, skipped: 0 });
    storeUp = false;
    const third = await publisher.publish({
      topic: 'orders',
      key: 'k4',
      type: MessageTypeNames.CreateCorsOrigin,
      value: origin('cors_origin_4'),
    });
    await waitFor(async () => (await listDeadLetters(kafka, { topic: 'orders' })).length === 3, {
      what: 'a third dead letter',
      timeoutMs: 30_000,
    });
    storeUp = true;
    expect(await replayDeadLetters(kafka, { topic: 'orders', types: ['platform.other.Type'] })).toEqual({
      replayed: 0,
      skipped: 1,
    });
    expect(await replayDeadLetters(kafka, { topic: 'orders' })).toEqual({ replayed: 1, skipped: 0 });
    await waitFor(() => applied.some((a) => a.id === third), { what: 'the third message applied' });
    expect(applied).toHaveLength(4);
  }, 120_000);
});
