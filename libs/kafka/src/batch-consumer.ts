import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { decodeMessage, isMessageType, type MessageType, type MessageTypes } from '@platform/contracts';
import { isPlatformError } from '@platform/errors';
import { SpanKind, metrics, withSpan } from '@platform/telemetry';
import { backoffDelay } from './backoff.js';
import { decodeBody } from './decode.js';
import type { KafkaClient } from './client.js';
import { isGroupMembershipLost } from './group-errors.js';
import { HEADERS, headersToStrings, readHeaders, type MessageMeta } from './headers.js';
import { joinGroup } from './join-group.js';

/** One decoded message of a batch. */
export interface BatchMessage<K extends MessageType = MessageType> {
  offset: string;
  key: string | null;
  type: K;
  value: MessageTypes[K];
  meta: MessageMeta;
}

/** Consecutive messages of one partition; `lastOffset` is the last offset they cover (skipped ones included). */
export interface IncomingBatch<K extends MessageType = MessageType> {
  /** The topic's full name (with the deployment's prefix). */
  topic: string;
  partition: number;
  messages: Array<BatchMessage<K>>;
  firstOffset: string;
  lastOffset: string;
  /** How many messages of the partition were waiting after this batch when it was fetched (absent: none). */
  behind?: number;
  heartbeat(): Promise<void>;
  /** Sends one message of the batch to `<topic>.dlq` (a handler working message by message skips a bad one). */
  deadLetter(message: BatchMessage<K>, reason: string, attempts: number): Promise<void>;
}

export interface BatchConsumerOptions<K extends MessageType> {
  client: KafkaClient;
  groupId: string;
  /** Logical topic names (the client's prefix is added). */
  topics: string[];
  /** The record types handed to `handle`; other known types on the topics are skipped. */
  types: readonly K[];
  /**
   * Handles a batch; its offsets are committed once it resolves. It must be idempotent per offset: a crash or
   * a rebalance before the commit hands the same messages (perhaps cut into other batches) to a member again.
   * It may answer `'hold'` to take the partition's next batch before this one is done: the consumer then reads
   * on without committing, hands it every next batch of the partition (even one with no message for it), and
   * commits them all once a batch resolves without `'hold'`. A handler that holds must fold what it held into
   * that last batch's work; after a restart or a rebalance, the partition comes again from the last commit.
   */
  handle(batch: IncomingBatch<K>): Promise<void | 'hold'>;
  /** The most messages in one `handle` call (a fetched batch is cut into pieces of this size). */
  maxBatchSize?: number;
  /** How much one fetch takes from a partition (kafkajs `maxBytesPerPartition`): a lagging group gets big batches. */
  maxBytesPerPartition?: number;
  partitionsConsumedConcurrently?: number;
  /**
   * How long the broker may hold a fetch for `fetchMinBytes` to arrive (kafkajs `maxWaitTimeInMs`, 5 s by
   * default) and how much it waits for (`minBytes`, 1 by default: a fetch returns with the first message).
   * A consumer that keeps up with a busy topic gets a few messages per fetch, and pays a fetch and a commit
   * request for them; waiting for a few KiB, for at most a few milliseconds, makes its batches bigger.
   */
  fetchMaxWaitMs?: number;
  fetchMinBytes?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  fromBeginning?: boolean;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Names the consuming process in spans (`platform.component`). */
  component?: string;
}

export interface BatchConsumerHandle {
  /** Resolves once the group has been joined and partitions assigned. */
  ready: Promise<void>;
  /** Finishes the batch in flight, commits offsets and leaves the group. */
  stop(): Promise<void>;
}

const meter = metrics.getMeter('@platform/kafka');
const processed = meter.createCounter('platform.messaging.processed', { description: 'Messages handled, by outcome' });
const batchDuration = meter.createHistogram('platform.messaging.batch.duration', { unit: 's', description: 'Handler time per batch attempt' });

/**
 * A consumer group that hands its handler whole batches of one partition (kafkajs `eachBatch`), for consumers
 * whose work folds many messages into few writes (the analytics aggregator). Undecodable messages go to
 * `<topic>.dlq` and are not handed on; a failing batch is retried with backoff (a non-retriable failure
 * dead-letters the batch); a rebalance leaves the batch uncommitted for the partition's next owner.
 */
export async function runBatchConsumer<K extends MessageType>(options: BatchConsumerOptions<K>): Promise<BatchConsumerHandle> {
  const { client } = options;
  const logger = client.logger.child({ group: options.groupId });
  const maxBatchSize = options.maxBatchSize ?? 2000;
  const wanted = new Set<string>(options.types);
  const consumer: Consumer = client.kafka.consumer({
    groupId: `${client.topicPrefix}${options.groupId}`,
    sessionTimeout: options.sessionTimeoutMs ?? 30000,
    heartbeatInterval: options.heartbeatIntervalMs ?? 3000,
    allowAutoTopicCreation: false,
    ...(options.fetchMaxWaitMs !== undefined ? { maxWaitTimeInMs: options.fetchMaxWaitMs } : {}),
    ...(options.fetchMinBytes !== undefined ? { minBytes: options.fetchMinBytes } : {}),
    ...(options.maxBytesPerPartition ? { maxBytesPerPartition: options.maxBytesPerPartition, maxBytes: Math.max(10 * 1024 * 1024, options.maxBytesPerPartition * 4) } : {}),
  });
  const deadLetters: Producer = client.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  let stopping = false;
  /** The partitions whose handler holds batches it has not applied yet (`<topic>:<partition>`). */
  const holding = new Set<string>();

  async function deadLetter(topic: string, messages: KafkaMessage[], reason: string, attempts: number) {
    if (messages.length === 0) return;
    await deadLetters.send({
      topic: `${topic}.dlq`,
      acks: -1,
      messages: messages.map((m) => ({
        key: m.key,
        value: m.value,
        headers: { ...headersToStrings(m.headers), [HEADERS.error]: reason.slice(0, 1000), [HEADERS.attempt]: String(attempts) },
      })),
    });
    logger.error({ topic, count: messages.length, first: messages[0]!.offset, reason }, 'messages dead-lettered');
    processed.add(messages.length, { group: options.groupId, outcome: 'dead_lettered' });
  }

  async function decode(topic: string, raw: KafkaMessage[]) {
    const messages: Array<BatchMessage<K>> = [];
    /** The undecoded form of each message, at the same index (what a dead letter carries). */
    const raws: KafkaMessage[] = [];
    const bad: Array<{ message: KafkaMessage; reason: string }> = [];
    for (const message of raw) {
      const meta = readHeaders(message.headers);
      if (!meta || !message.value) bad.push({ message, reason: 'missing ce_* headers or empty body' });
      else if (!isMessageType(meta.type)) bad.push({ message, reason: `unknown message type ${meta.type}` });
      else if (!wanted.has(meta.type)) continue;
      else {
        try {
          const type = meta.type as K;
          // Bare Avro (no registry frame) is read at once: no promise per message in batches of thousands.
          const value = meta.raw[HEADERS.registryId] === undefined ? decodeMessage(type, meta.schema, message.value) : await decodeBody(client.registry, type, meta, message.value);
          const decoded: BatchMessage<K> = { offset: message.offset, key: message.key?.toString() ?? null, type, value, meta };
          messages.push(decoded);
          raws.push(message);
        } catch (error) {
          if (isPlatformError(error) && error.retriable) throw error; // the registry is away: the batch comes again
          bad.push({ message, reason: (error as Error).message });
        }
      }
    }
    return { messages, bad, raws };
  }

  async function eachBatch(payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const key = `${batch.topic}:${batch.partition}`;
    for (let i = 0; i < batch.messages.length; i += maxBatchSize) {
      if (!payload.isRunning() || payload.isStale()) return;
      const raw = batch.messages.slice(i, i + maxBatchSize);
      const { messages, bad, raws } = await decode(batch.topic, raw);
      for (const { message, reason } of bad) await deadLetter(batch.topic, [message], reason, 0);
      const lastOffset = raw.at(-1)!.offset;
      const incoming: IncomingBatch<K> = {
        topic: batch.topic,
        partition: batch.partition,
        messages,
        firstOffset: raw[0]!.offset,
        lastOffset,
        behind: Math.max(0, Number(batch.highWatermark) - 1 - Number(lastOffset)),
        heartbeat: payload.heartbeat,
        deadLetter: async (message, reason, attempts) => {
          const original = raws[messages.indexOf(message)];
          if (original) await deadLetter(batch.topic, [original], reason, attempts);
        },
      };
      const held = messages.length > 0 || holding.has(key) ? await handleWithRetries(incoming, raw) : undefined;
      payload.resolveOffset(lastOffset);
      if (held === 'hold') holding.add(key);
      else {
        holding.delete(key);
        // Commits are explicit (autoCommit is off): a held batch is read past but must not be committed.
        await payload.commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: String(BigInt(lastOffset) + 1n) }] }] });
      }
      await payload.heartbeat();
    }
  }

  async function handleWithRetries(incoming: IncomingBatch<K>, raw: KafkaMessage[]): Promise<void | 'hold'> {
    for (let attempt = 1; ; attempt++) {
      const timer = setInterval(() => void incoming.heartbeat().catch(() => undefined), options.heartbeatIntervalMs ?? 3000);
      const started = performance.now();
      try {
        const outcome = await withSpan(
          '@platform/kafka',
          `process batch ${incoming.topic}`,
          {
            kind: SpanKind.CONSUMER,
            attributes: {
              'messaging.system': 'kafka',
              'messaging.destination.name': incoming.topic,
              'messaging.destination.partition.id': String(incoming.partition),
              'messaging.consumer.group.name': options.groupId,
              'messaging.batch.message_count': incoming.messages.length,
              'platform.component': options.component ?? options.groupId,
            },
          },
          () => options.handle(incoming),
        );
        processed.add(incoming.messages.length, { group: options.groupId, outcome: 'ok' });
        return outcome;
      } catch (error) {
        if (isGroupMembershipLost(error)) {
          processed.add(incoming.messages.length, { group: options.groupId, outcome: 'handed_over' });
          logger.info({ topic: incoming.topic, partition: incoming.partition, offset: incoming.firstOffset }, 'group rebalancing: batch left to the next owner');
          throw error;
        }
        // Dead-lettering a batch commits it, and with it the batches held before it: those are retried instead.
        const retriable = !isPlatformError(error) || error.retriable || holding.has(`${incoming.topic}:${incoming.partition}`);
        if (!retriable) {
          await deadLetter(incoming.topic, raw, error instanceof Error ? `${error.name}: ${error.message}` : String(error), attempt);
          return;
        }
        processed.add(incoming.messages.length, { group: options.groupId, outcome: 'retried' });
        if (stopping) throw error; // uncommitted: the next owner redoes it
        const delay = backoffDelay(Math.min(attempt, 10), options.backoffBaseMs ?? 200, options.backoffMaxMs ?? 10_000);
        logger.warn({ err: error, topic: incoming.topic, partition: incoming.partition, offset: incoming.firstOffset, attempt, delay }, 'batch failed, retrying');
        await sleep(delay);
      } finally {
        batchDuration.record((performance.now() - started) / 1000, { group: options.groupId });
        clearInterval(timer);
      }
    }
  }

  const { ready } = await joinGroup(client, { consumer, deadLetters, logger }, { topics: options.topics, fromBeginning: options.fromBeginning ?? true }, {
    eachBatchAutoResolve: false,
    autoCommit: false,
    partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
    eachBatch,
  });

  return {
    ready,
    async stop() {
      if (stopping) return;
      stopping = true;
      await consumer.disconnect();
      await deadLetters.disconnect();
    },
  };
}
