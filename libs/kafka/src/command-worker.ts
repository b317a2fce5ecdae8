import type { MessageType } from '@platform/contracts';
import type { Logger } from '@platform/telemetry';
import type { KafkaClient } from './client.js';
import type { ReplyTransport } from './command-bus.js';
import { createCommandProcessor, type CommandResultStore } from './command-processor.js';
import { runConsumer, type ConsumerHandle, type HandlerMap, type IncomingMessage } from './consumer.js';
import { createOutboxRelay, type OutboxHint, type OutboxRelay, type OutboxSource } from './outbox-relay.js';
import { createPublisher, type Publisher } from './publisher.js';
import { ensureTopics, type TopicRequest } from './topics.js';

/**
 * Handles one command of the worker's types and returns the reply; `touched` names each document that received
 * events, so the relay publishes them at once (reading that document by id instead of scanning).
 */
export type CommandHandler<C extends MessageType> = <T extends C>(
  type: T,
  message: IncomingMessage<T>,
  touched: (source: string, docId: string) => void,
) => Promise<unknown>;

export interface CommandWorkerOptions<C extends MessageType> {
  kafka: KafkaClient;
  /** The process: the producer's CloudEvents source (`/<name>`), the command group's id and component. */
  name: string;
  commandTopic: string;
  /** Topics this process needs, created at start if missing. */
  topics: TopicRequest[];
  outboxSources: OutboxSource[];
  results: CommandResultStore;
  replies: ReplyTransport;
  logger: Logger;
  /** Every command type the worker consumes, each handled by `handle`. */
  commandTypes: readonly C[];
  handle: CommandHandler<C>;
  /** Runs once a command's reply is stored (a redelivery will replay it from now on instead of redoing it). */
  afterReply?: <T extends C>(type: T, message: IncomingMessage<T>) => Promise<void>;
  /** Starts event reactions in consumer groups of their own (stopped with the worker). */
  startConsumers?: (tools: { publisher: Publisher; relay: OutboxRelay }) => Promise<ConsumerHandle[]>;
  /** See createCommandProcessor: `skip` for work only worth doing while its sender waits. */
  expired?: 'run' | 'skip';
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export interface CommandWorker {
  start(): Promise<void>;
  /** Resolves once every consumer group has its partitions. */
  ready(): Promise<void>;
  stop(): Promise<void>;
  publisher: Publisher;
}

/**
 * The shape every domain worker has: commands consumed in one group, each deduplicated and answered by the
 * command processor, events published from the stored outboxes by the relay (woken for the documents a
 * command touched), plus any event reactions. Stop finishes in-flight messages and commits offsets.
 */
export function createCommandWorker<C extends MessageType>(options: CommandWorkerOptions<C>): CommandWorker {
  const publisher = createPublisher(options.kafka, { source: `/${options.name}` });
  const relay = createOutboxRelay({ publisher, sources: options.outboxSources, logger: options.logger, intervalMs: options.outboxIntervalMs ?? 1000 });
  const processor = createCommandProcessor({
    store: options.results,
    transport: options.replies,
    logger: options.logger,
    ...(options.expired ? { expired: options.expired } : {}),
  });
  const consumers: ConsumerHandle[] = [];

  function wrap<T extends C>(type: T) {
    const processed = processor.wrap<T>(async (message) => {
      const touched: OutboxHint[] = [];
      try {
        return await options.handle(type, message, (source, docId) => touched.push({ source, docId }));
      } finally {
        // Events written with the change go out right away, read by id; the relay's sweep covers a crash.
        if (touched.length > 0) relay.wake(touched);
      }
    });
    const after = options.afterReply;
    return after ? async (message: IncomingMessage<T>) => {
      await processed(message);
      await after(type, message);
    } : processed;
  }

  return {
    publisher,
    async start() {
      await ensureTopics(options.kafka, options.topics);
      await publisher.connect();
      relay.start();
      const handlers = Object.fromEntries(options.commandTypes.map((type) => [type, wrap(type)])) as unknown as HandlerMap<C>;
      consumers.push(
        await runConsumer({
          client: options.kafka,
          groupId: options.name,
          component: options.name,
          topics: [options.commandTopic],
          onDeadLetter: (meta) => processor.replyDeadLettered(meta),
          unhandled: 'dead-letter',
          ...(options.sessionTimeoutMs ? { sessionTimeoutMs: options.sessionTimeoutMs } : {}),
          partitionsConsumedConcurrently: options.partitionsConcurrency ?? 4,
          handlers,
        }),
      );
      consumers.push(...((await options.startConsumers?.({ publisher, relay })) ?? []));
    },
    async ready() {
      await Promise.all(consumers.map((c) => c.ready));
    },
    async stop() {
      for (const consumer of consumers) await consumer.stop();
      await relay.stop();
      await publisher.disconnect();
    },
  };
}
