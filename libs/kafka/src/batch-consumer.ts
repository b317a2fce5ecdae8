import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { decodeMessage, isMessageType, type MessageType, type MessageTypes } from '@platform/contracts';
import { isPlatformError } from '@platform/errors';
import { SpanKind, withSpan } from '@platform/telemetry';
import { backoffDelay } from './backoff.js';
import { decodeBody } from './decode.js';
import { deferredCommits } from './deferred-commits.js';
import type { KafkaClient } from './client.js';
import { isGroupMembershipLost } from './group-errors.js';
import { HEADERS, headersToStrings, readHeaders, type MessageMeta } from './headers.js';
import { joinGroup } from './join-group.js';
import { batchDuration, processed } from './message-metrics.js';
import { topicName } from './topics.js';

/** One decoded message of a batch. */
export interface BatchMessage<K extends MessageType = MessageType> {
  offset: string;
  key: string | null;
  type: K;
  value: MessageTypes[K];
  meta: MessageMeta;
}

/** A decoded message of a batch; its key is read from its bytes only when asked for (the aggregator never does). */
class DecodedMessage<K extends MessageType> implements BatchMessage<K> {
  #key: Buffer | string | null;

  constructor(
    readonly offset: string,
    key: Buffer | null,
    readonly type: K,
    readonly value: MessageTypes[K],
    readonly meta: MessageMeta,
  ) {
    this.#key = key;
  }

  get key(): string | null {
    if (Buffer.isBuffer(this.#key)) this.#key = this.#key.toString();
    return this.#key;
  }

  toJSON(): BatchMessage<K> {
    return { offset: this.offset, key: this.key, type: this.type, value: this.value, meta: this.meta };
  }
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

/**
 * Work a handler leaves to run after it has returned: the consumer reads on (the partition's next batches go to
 * the handler meanwhile) and commits the batch, with those held before it, once `finish` has resolved. `finish`
 * must be idempotent: it is retried with backoff until it succeeds, and a crash before the commit replays the
 * batches. One finish per partition runs at a time, in order; a second one waits for the first.
 */
export interface Finishing {
  finish(): Promise<void>;
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
   * It may also answer a `Finishing`: the writes of the batch (and of those it held) go on while the partition
   * is read on, and the batch is committed once they are done (so slow writes do not hold up every partition's
   * fetches: kafkajs fetches again only once each batch of a fetch has been handled).
   */
  handle(batch: IncomingBatch<K>): Promise<void | 'hold' | Finishing>;
  /** The most messages in one `handle` call (a fetched batch is cut into pieces of this size). */
  maxBatchSize?: number;
  /** How much one fetch takes from a partition (kafkajs `maxBytesPerPartition`): a lagging group gets big batches. */
  maxBytesPerPartition?: number;
  /**
   * How much one fetch takes in all (kafkajs `maxBytes`; by default four partitions' worth, at least 10 MiB).
   * kafkajs decodes a whole fetch before it hands over the first batch, so every record of it is alive while
   * the batches are handled: a smaller fetch keeps them in the young generation.
   */
  maxBytes?: number;
  partitionsConsumedConcurrently?: number;
  /**
   * Commits the offsets of handled batches at most this often, all partitions in one request, instead of one
   * request per batch (the default, 0). A busy topic's batches come tens of times a second per partition, and
   * each commit is a request and an append to the broker's offsets log; deferring them costs a crash or a
   * rebalance the redelivery of what was handled since the last commit, which every consumer tolerates. A
   * partition whose handler holds or finishes has its deferred offset committed first, so commits stay in
   * order; `stop` and a rebalance commit what is deferred.
   */
  commitIntervalMs?: number;
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
  /**
   * False when the handler counts the messages it handles itself, by type and outcome (`runBatchedReaction`'s
   * traced mode); dead letters are counted here either way.
   */
  countsMessages?: boolean;
}

export interface BatchConsumerHandle {
  /** Resolves once the group has been joined and partitions assigned. */
  ready: Promise<void>;
  /** Finishes the batch in flight, commits offsets and leaves the group. */
  stop(): Promise<void>;
}

/** How long `stop` waits for the finishes under way to land and commit. */
const FINISH_ON_STOP_MS = 10_000;

/**
 * A consumer group that hands its handler whole batches of one partition (kafkajs `eachBatch`), for consumers
 * whose work folds many messages into few writes (the analytics aggregator). Undecodable messages go to
 * `<topic>.dlq` and are not handed on; a failing batch is retried with backoff (a non-retriable failure
 * dead-letters the batch); a rebalance leaves the batch uncommitted for the partition's next owner.
 */
export async function runBatchConsumer<K extends MessageType>(
  options: BatchConsumerOptions<K>,
): Promise<BatchConsumerHandle> {
  const { client } = options;
  const logger = client.logger.child({ group: options.groupId });
  const maxBatchSize = options.maxBatchSize ?? 2000;
  const wanted = new Set<string>(options.types);
  const count = (n: number, outcome: 'ok' | 'handed_over' | 'retried') => {
    if (options.countsMessages !== false) processed.add(n, { group: options.groupId, outcome });
  };
  const consumer: Consumer = client.kafka.consumer({
    groupId: `${client.topicPrefix}${options.groupId}`,
    sessionTimeout: options.sessionTimeoutMs ?? 30000,
    heartbeatInterval: options.heartbeatIntervalMs ?? 3000,
    allowAutoTopicCreation: false,
    ...(options.fetchMaxWaitMs !== undefined ? { maxWaitTimeInMs: options.fetchMaxWaitMs } : {}),
    ...(options.fetchMinBytes !== undefined ? { minBytes: options.fetchMinBytes } : {}),
    ...(options.maxBytesPerPartition
      ? {
          maxBytesPerPartition: options.maxBytesPerPartition,
          maxBytes: Math.max(10 * 1024 * 1024, options.maxBytesPerPartition * 4),
        }
      : {}),
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
  });
  const deadLetters: Producer = client.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  let stopping = false;
  /** The partitions whose handler holds batches it has not applied yet (`<topic>:<partition>`). */
  const holding = new Set<string>();
  /** Per partition, the finish running and its commit: the partition's next commit comes after it. */
  const finishing = new Map<string, Promise<void>>();
  // A finish of a partition handed over commits nothing (commits.owns).
  const commitIntervalMs = options.commitIntervalMs ?? 0;
  const commits = deferredCommits(consumer, { intervalMs: commitIntervalMs, logger });

  async function deadLetter(topic: string, messages: KafkaMessage[], reason: string, attempts: number) {
    if (messages.length === 0) return;
    await deadLetters.send({
      topic: `${topic}.dlq`,
      acks: -1,
      messages: messages.map((m) => ({
        key: m.key,
        value: m.value,
        headers: {
          ...headersToStrings(m.headers),
          [HEADERS.error]: reason.slice(0, 1000),
          [HEADERS.attempt]: String(attempts),
        },
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
          const value =
            meta.registryId === undefined
              ? decodeMessage(type, meta.schema, message.value)
              : await decodeBody(client.registry, type, meta, message.value);
          messages.push(new DecodedMessage(message.offset, message.key ?? null, type, value, meta));
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
      const outcome = messages.length > 0 || holding.has(key) ? await handleWithRetries(incoming, raw) : undefined;
      payload.resolveOffset(lastOffset);
      const next = String(BigInt(lastOffset) + 1n);
      // A deferred offset goes before anything this batch leads to (a held batch is never committed past it).
      if (outcome !== undefined && commits.has(key)) await commits.flush(key);
      if (outcome === 'hold') holding.add(key);
      else {
        holding.delete(key);
        // The partition's finish still running commits first (a commit covers every offset before it); the
        // member keeps heartbeating meanwhile, as it does while a handler retries.
        const earlier = finishing.get(key);
        if (earlier) {
          const timer = heartbeating(payload.heartbeat);
          await earlier.finally(() => clearInterval(timer));
        }
        if (outcome) {
          const done: Promise<void> = finishThenCommit(batch.topic, batch.partition, outcome, next).finally(() => {
            if (finishing.get(key) === done) finishing.delete(key);
          });
          finishing.set(key, done);
        }
        // Commits are explicit (autoCommit is off): a held batch is read past but must not be committed.
        else if (commitIntervalMs > 0) commits.defer(batch.topic, batch.partition, next);
        else
          await payload.commitOffsetsIfNecessary({
            topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: next }] }],
          });
      }
      await payload.heartbeat();
    }
  }

  /** Keeps the member in its group while a batch's work outlasts the session timeout; the timer it gives back stops it. */
  const heartbeating = (heartbeat: () => Promise<void>) =>
    setInterval(() => void heartbeat().catch(() => undefined), options.heartbeatIntervalMs ?? 3000);

  /** Runs a handler's finish (retried until it succeeds or the consumer stops), then commits; never rejects. */
  async function finishThenCommit(topic: string, partition: number, work: Finishing, offset: string): Promise<void> {
    const key = `${topic}:${partition}`;
    try {
      for (let attempt = 1; ; attempt++) {
        const started = performance.now();
        try {
          await work.finish();
          break;
        } catch (error) {
          // Not committed: whoever reads the partition next (this member after a restart, or another) redoes it.
          if (stopping)
            return logger.warn(
              { err: error, topic, partition },
              'batch finish failed while stopping: left uncommitted',
            );
          const delay = backoffDelay(
            Math.min(attempt, 10),
            options.backoffBaseMs ?? 200,
            options.backoffMaxMs ?? 10_000,
          );
          logger.warn({ err: error, topic, partition, attempt, delay }, 'batch finish failed, retrying');
          await sleep(delay);
        } finally {
          batchDuration.record((performance.now() - started) / 1000, { group: options.groupId });
        }
      }
      if (!commits.owns(key))
        return logger.info(
          { topic, partition, offset },
          'partition handed over before its batch was finished: not committed',
        );
      await consumer.commitOffsets([{ topic, partition, offset }]);
    } catch (error) {
      logger.warn(
        { err: error, topic, partition, offset },
        'commit after finish failed: the partition is read again from its last commit',
      );
    }
  }

  async function handleWithRetries(
    incoming: IncomingBatch<K>,
    raw: KafkaMessage[],
  ): Promise<void | 'hold' | Finishing> {
    for (let attempt = 1; ; attempt++) {
      const timer = heartbeating(incoming.heartbeat);
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
        count(incoming.messages.length, 'ok');
        return outcome;
      } catch (error) {
        if (isGroupMembershipLost(error)) {
          count(incoming.messages.length, 'handed_over');
          logger.info(
            { topic: incoming.topic, partition: incoming.partition, offset: incoming.firstOffset },
            'group rebalancing: batch left to the next owner',
          );
          throw error;
        }
        // Dead-lettering a batch commits it, and with it the batches held before it: those are retried instead.
        const retriable =
          !isPlatformError(error) || error.retriable || holding.has(`${incoming.topic}:${incoming.partition}`);
        if (!retriable) {
          await deadLetter(
            incoming.topic,
            raw,
            error instanceof Error ? `${error.name}: ${error.message}` : String(error),
            attempt,
          );
          return;
        }
        count(incoming.messages.length, 'retried');
        if (stopping) throw error; // uncommitted: the next owner redoes it
        const delay = backoffDelay(Math.min(attempt, 10), options.backoffBaseMs ?? 200, options.backoffMaxMs ?? 10_000);
        logger.warn(
          {
            err: error,
            topic: incoming.topic,
            partition: incoming.partition,
            offset: incoming.firstOffset,
            attempt,
            delay,
          },
          'batch failed, retrying',
        );
        await sleep(delay);
      } finally {
        batchDuration.record((performance.now() - started) / 1000, { group: options.groupId });
        clearInterval(timer);
      }
    }
  }

  const { ready } = await joinGroup(
    client,
    { consumer, deadLetters, logger },
    { topics: options.topics, fromBeginning: options.fromBeginning ?? true },
    {
      eachBatchAutoResolve: false,
      autoCommit: false,
      partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
      eachBatch,
    },
  );

  return {
    ready,
    async stop() {
      if (stopping) return;
      stopping = true;
      // No new batches; the finishes under way get a little time to land and commit (the rest is read again).
      if (finishing.size > 0) consumer.pause(options.topics.map((topic) => ({ topic: topicName(client, topic) })));
      const deadline = performance.now() + FINISH_ON_STOP_MS;
      // (The deadline's timer is not to keep the process alive once the finishes are done.)
      while (finishing.size > 0 && performance.now() < deadline)
        await Promise.race([
          Promise.all(finishing.values()),
          sleep(Math.max(0, deadline - performance.now()), undefined, { ref: false }),
        ]);
      await commits.stop();
      await consumer.disconnect();
      await deadLetters.disconnect();
    },
  };
}
