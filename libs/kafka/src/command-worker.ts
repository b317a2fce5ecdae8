import type { CommandReplies, CommandType } from '@platform/contracts';
import type { Logger } from '@platform/telemetry';
import type { KafkaClient } from './client.js';
import type { ReplyTransport } from './command-bus.js';
import type { BatchMessage } from './batch-consumer.js';
import type { BatchedReactionOptions } from './batched-reaction.js';
import { createCommandProcessor, type CommandProcessor, type CommandResultStore } from './command-processor.js';
import type { HandlerMap, IncomingMessage } from './consumer.js';
import {
  createEventWorker,
  reaction,
  type BackgroundTask,
  type EventWorker,
  type Reaction,
  type WorkerTools,
} from './event-worker.js';
import type { OutboxSource } from './outbox-relay.js';
import type { TopicRequest } from './topics.js';

/** Handles one command of the worker's types and returns the reply. */
export type CommandHandler<C extends CommandType> = <T extends C>(
  type: T,
  message: IncomingMessage<T>,
) => Promise<CommandReplies[T]>;

export interface CommandWorkerOptions<C extends CommandType> {
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
  /**
   * Runs once a command's reply is stored (a redelivery will replay it from now on instead of redoing it); it
   * may run twice for a command (its batch's close is retried when it fails).
   */
  afterReply?: <T extends C>(type: T, message: IncomingMessage<T>) => Promise<void>;
  /** Event reactions in consumer groups of their own (started and stopped with the worker). */
  reactions?: (tools: WorkerTools) => Reaction[];
  background?: (tools: WorkerTools) => BackgroundTask[];
  /** See createCommandProcessor: `skip` for work only worth doing while its sender waits. */
  expired?: 'run' | 'skip';
  /** See commandGroup: reads a batch's commands will need, made together before the first of them runs. */
  prefetch?: BatchPrefetch<C>;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export type CommandWorker = EventWorker;

/**
 * The event worker with a command group in front: each command deduplicated and answered by the command
 * processor, events published from the stored outboxes by the relay (told of each outbox write by the
 * store client); a command type nobody handles is dead-lettered and its sender answered with a rejection.
 */
export function createCommandWorker<C extends CommandType>(options: CommandWorkerOptions<C>): CommandWorker {
  const after = options.afterReply;
  const processor = createCommandProcessor({
    store: options.results,
    transport: options.replies,
    logger: options.logger,
    ...(options.expired ? { expired: options.expired } : {}),
    ...(after ? { afterStored: (message: IncomingMessage) => after(message.type as C, message as never) } : {}),
  });

  return createEventWorker({
    kafka: options.kafka,
    name: options.name,
    topics: options.topics,
    outboxSources: options.outboxSources,
    logger: options.logger,
    ...(options.outboxIntervalMs ? { outboxIntervalMs: options.outboxIntervalMs } : {}),
    ...(options.background ? { background: options.background } : {}),
    reactions: (tools) => [
      reaction<C>({
        batched: true,
        ...commandGroup<C>({
          groupId: options.name,
          topic: options.commandTopic,
          processor,
          partitionsConcurrency: options.partitionsConcurrency ?? 4,
          ...(options.prefetch ? { prefetch: options.prefetch } : {}),
          ...(options.sessionTimeoutMs ? { sessionTimeoutMs: options.sessionTimeoutMs } : {}),
          // Events written with the change go out right away: the relay hears of the write from the store client.
          handlers: Object.fromEntries(
            options.commandTypes.map((type) => [
              type,
              (message: IncomingMessage) => options.handle(type, message as never),
            ]),
          ) as unknown as CommandHandlers<C>,
        }),
      }),
      ...(options.reactions?.(tools) ?? []),
    ],
  });
}

/**
 * Reads that a batch's commands will need, made together before the first of them runs (beside the read of
 * their stored replies), where the commands of a partition would otherwise read one after another. Resolves
 * with what to forget once the batch is closed (its replies stored), if anything.
 */
export type BatchPrefetch<C extends CommandType> = (
  messages: ReadonlyArray<BatchMessage<C>>,
) => Promise<(() => void) | undefined>;

/** A command group's handlers: each returns its command's reply. */
export type CommandHandlers<C extends CommandType> = { [T in C]: (message: IncomingMessage<T>) => Promise<unknown> };

/**
 * How a command group consumes (ADR 0035), for `runBatchedReaction`: a partition's fetched commands share the
 * reads of their stored replies and the write of the new ones (two store round trips per batch, not two per
 * command); handlers run one at a time, in order, each in a span under the trace its command carries; a command
 * type nobody handles is dead-lettered and its sender answered.
 */
export function commandGroup<C extends CommandType>(options: {
  groupId: string;
  topic: string;
  processor: CommandProcessor;
  /** Handlers whose return value is the command's reply. */
  handlers: CommandHandlers<C>;
  prefetch?: BatchPrefetch<C>;
  partitionsConcurrency?: number;
  sessionTimeoutMs?: number;
}): Omit<BatchedReactionOptions<C>, 'client'> {
  const { processor } = options;
  return {
    groupId: options.groupId,
    topics: [options.topic],
    // The scope takes each handler's reply; the reaction itself only awaits them.
    handlers: options.handlers as unknown as HandlerMap<C>,
    onDeadLetter: (meta) => processor.replyDeadLettered(meta),
    unhandled: 'dead-letter',
    scope: async (messages) => {
      const { prefetch } = options;
      if (!prefetch) return processor.batch(messages);
      const [batch, forget] = await Promise.all([processor.batch(messages), prefetch(messages)]);
      if (!forget) return batch;
      return {
        run: (message, handler) => batch.run(message, handler),
        async close() {
          await batch.close();
          forget();
        },
      };
    },
    traced: true,
    // A fetch answers as soon as a command is there: a command never waits for others to fill a batch.
    fetchMinBytes: 1,
    fetchMaxWaitMs: 5000,
    maxBatchSize: 100,
    ...(options.partitionsConcurrency ? { partitionsConsumedConcurrently: options.partitionsConcurrency } : {}),
    ...(options.sessionTimeoutMs ? { sessionTimeoutMs: options.sessionTimeoutMs } : {}),
  };
}

/** A worker's handlers, one per command type, each returning the reply declared for its command. */
export type CommandHandlerMap<C extends CommandType, D> = {
  [T in C]: (deps: D, message: IncomingMessage<T>) => Promise<CommandReplies[T]>;
};

/** Runs the handler the map holds for the message's type (the map's type guarantees there is one). */
export function runHandler<C extends CommandType, D, T extends C>(
  map: CommandHandlerMap<C, D>,
  deps: D,
  message: IncomingMessage<T>,
): Promise<CommandReplies[T]> {
  const handler = map[message.type] as unknown as (deps: D, message: IncomingMessage<T>) => Promise<CommandReplies[T]>;
  return handler(deps, message);
}
