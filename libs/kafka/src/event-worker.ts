import type { MessageType } from '@platform/contracts';
import type { Logger } from '@platform/telemetry';
import type { KafkaClient } from './client.js';
import { runBatchConsumer, type BatchConsumerOptions } from './batch-consumer.js';
import { runBatchedReaction, type BatchedReactionOptions } from './batched-reaction.js';
import { runConsumer } from './consumer.js';
import { createOutboxRelay, type OutboxRelay, type OutboxSource } from './outbox-relay.js';
import { createPublisher, type Publisher } from './publisher.js';
import { ensureTopics, type TopicRequest } from './topics.js';

type ReactionSpec<K extends MessageType> = Omit<BatchedReactionOptions<K>, 'client' | 'component'> & {
  /**
   * Run the handlers over fetched batches (`runBatchedReaction`): one timer and commit per batch, and work shared
   * by a batch's messages (`scope`). For busy topics, and for commands; the failure rules are the same, message by
   * message. The batch options (fetch sizes, `scope`, `traced`, `maxBatchSize`) apply only to a batched reaction.
   */
  batched?: boolean;
};

/**
 * A consumer group whose handler takes whole batches of a partition (`runBatchConsumer`): for work that folds
 * many messages into few writes (one insert for a batch of webhook deliveries).
 */
type BatchReactionSpec<K extends MessageType> = Omit<BatchConsumerOptions<K>, 'client' | 'component'>;

/** One consumer group of a worker: its topics and a handler map (or a batch handler) typed from the contract. */
export type Reaction = ReactionSpec<MessageType> | BatchReactionSpec<MessageType>;

/**
 * Declares a reaction with its handler map checked against the listed message types: leaving one out is a type
 * error. The result is erased to `Reaction` so that reactions of different types sit in one list.
 */
export function reaction<K extends MessageType>(spec: ReactionSpec<K>): Reaction {
  return spec as unknown as Reaction;
}

/** Declares a reaction that handles whole batches (see BatchReactionSpec). */
export function batchReaction<K extends MessageType>(spec: BatchReactionSpec<K>): Reaction {
  return spec as unknown as Reaction;
}

/** Work a worker runs beside its consumers (a delivery scheduler, a poller): started before them, stopped after. */
export interface BackgroundTask {
  start(): void;
  stop(): Promise<void>;
}

export interface WorkerTools {
  publisher: Publisher;
  relay: OutboxRelay;
}

export interface EventWorkerOptions {
  kafka: KafkaClient;
  /** The process: the producer's CloudEvents source (`/<name>`) and the component in spans. */
  name: string;
  /** Topics this process needs (catalogue names), created at start if missing. */
  topics: TopicRequest[];
  outboxSources: OutboxSource[];
  logger: Logger;
  /** The worker's consumer groups, built once the publisher and relay exist. */
  reactions: (tools: WorkerTools) => Reaction[];
  background?: (tools: WorkerTools) => BackgroundTask[];
  outboxIntervalMs?: number;
}

export interface EventWorker {
  start(): Promise<void>;
  /** Resolves once every consumer group has its partitions. */
  ready(): Promise<void>;
  stop(): Promise<void>;
  publisher: Publisher;
  relay: OutboxRelay;
}

/**
 * The one worker shape: a publisher, an outbox relay for the documents the worker writes, consumer groups with
 * typed handler maps, and any background tasks. Start creates topics, connects, then starts the relay, the
 * tasks and the groups; stop reverses it, finishing in-flight messages and committing offsets first.
 */
export function createEventWorker(options: EventWorkerOptions): EventWorker {
  const publisher = createPublisher(options.kafka, { source: `/${options.name}` });
  const relay = createOutboxRelay({
    publisher,
    sources: options.outboxSources,
    logger: options.logger,
    intervalMs: options.outboxIntervalMs ?? 1000,
  });
  const tools = { publisher, relay };
  const consumers: Array<{ ready: Promise<void>; stop(): Promise<void> }> = [];
  let tasks: BackgroundTask[] = [];

  return {
    publisher,
    relay,
    async start() {
      await ensureTopics(options.kafka, options.topics);
      await publisher.connect();
      relay.start();
      tasks = options.background?.(tools) ?? [];
      for (const task of tasks) task.start();
      for (const spec of options.reactions(tools)) {
        if ('handle' in spec) {
          consumers.push(await runBatchConsumer({ ...spec, client: options.kafka, component: options.name }));
          continue;
        }
        const { batched, ...consumer } = spec;
        const run = batched ? runBatchedReaction : runConsumer;
        consumers.push(await run({ ...consumer, client: options.kafka, component: options.name }));
      }
    },
    async ready() {
      await Promise.all(consumers.map((c) => c.ready));
    },
    async stop() {
      for (const consumer of consumers) await consumer.stop();
      for (const task of tasks) await task.stop();
      await relay.stop();
      await publisher.disconnect();
    },
  };
}
