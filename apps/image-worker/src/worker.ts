import { MessageTypeNames } from '@platform/contracts';
import { IMAGES_TOPICS, countDocId, type CompressionCounts } from '@platform/images';
import {
  createCommandProcessor,
  createOutboxRelay,
  createPublisher,
  ensureTopics,
  runConsumer,
  type CommandResultStore,
  type ConsumerHandle,
  type IncomingMessage,
  type KafkaClient,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import type { Logger } from '@platform/telemetry';
import { commandHandlers, type HandlerDeps, type ImageCommand } from './handlers/index.js';

export interface WorkerDeps extends HandlerDeps {
  kafka: KafkaClient;
  counts: CompressionCounts;
  results: CommandResultStore;
  replies: ReplyTransport;
  logger: Logger;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export interface Worker {
  start(): Promise<void>;
  ready(): Promise<void>;
  stop(): Promise<void>;
}

export const IMAGE_WORKER_TOPICS = [
  // Partitions bound how many worker processes share the work: 12 leaves room to scale out.
  { topic: IMAGES_TOPICS.commands, partitions: 12 },
  { topic: IMAGES_TOPICS.events },
  { topic: `${IMAGES_TOPICS.commands}.dlq`, partitions: 1 },
];

export function createWorker(deps: WorkerDeps): Worker {
  const publisher = createPublisher(deps.kafka, { source: '/image-worker' });
  const outboxSource = createMongoOutboxSource(deps.counts.outboxCollection());
  const relay = createOutboxRelay({ publisher, sources: [outboxSource], logger: deps.logger, intervalMs: deps.outboxIntervalMs ?? 1000 });
  // An image whose requester gave up is neither made nor charged.
  const processor = createCommandProcessor({ store: deps.results, transport: deps.replies, logger: deps.logger, expired: 'skip' });
  let consumer: ConsumerHandle | undefined;

  function command<T extends ImageCommand>(type: T) {
    const handler = commandHandlers[type] as (d: HandlerDeps, m: IncomingMessage<T>) => Promise<unknown>;
    const wrapped = processor.wrap<T>(async (message) => {
      try {
        return await handler(deps, message);
      } finally {
        relay.wake([{ source: outboxSource.name, docId: countDocId(message.value.account_id, message.value.requested_at) }]);
      }
    });
    return async (message: IncomingMessage<T>) => {
      await wrapped(message);
      // The reply is stored now, so a redelivery replays it: the charge's dedupe entry is no longer needed.
      await deps.counts.release(message.value.account_id, message.value.requested_at, message.meta.id);
    };
  }

  return {
    async start() {
      await ensureTopics(deps.kafka, IMAGE_WORKER_TOPICS);
      await publisher.connect();
      relay.start();
      consumer = await runConsumer({
        client: deps.kafka,
        groupId: 'image-worker',
        component: 'image-worker',
        topics: [IMAGES_TOPICS.commands],
        onDeadLetter: (meta) => processor.replyDeadLettered(meta),
        ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
        partitionsConsumedConcurrently: deps.partitionsConcurrency ?? 2,
        handlers: {
          [MessageTypeNames.CompressImage]: command(MessageTypeNames.CompressImage),
          [MessageTypeNames.RenderOutput]: command(MessageTypeNames.RenderOutput),
        },
      });
    },
    async ready() {
      await consumer?.ready;
    },
    async stop() {
      await consumer?.stop();
      await relay.stop();
      await publisher.disconnect();
    },
  };
}
