import { IMAGES_TOPICS, type CompressionCounts } from '@platform/images';
import {
  createCommandWorker,
  runHandler,
  type CommandResultStore,
  type CommandWorker,
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

export type Worker = CommandWorker;

export const IMAGE_WORKER_TOPICS = [
  // Partitions bound how many worker processes share the work: 12 leaves room to scale out.
  IMAGES_TOPICS.commands,
  IMAGES_TOPICS.events,
];

type Value = { account_id: string; requested_at: number };

export function createWorker(deps: WorkerDeps): Worker {
  const outboxSource = createMongoOutboxSource(deps.counts.outboxCollection());
  return createCommandWorker<ImageCommand>({
    kafka: deps.kafka,
    name: 'image-worker',
    commandTopic: IMAGES_TOPICS.commands,
    topics: IMAGE_WORKER_TOPICS,
    outboxSources: [outboxSource],
    results: deps.results,
    replies: deps.replies,
    logger: deps.logger,
    // An image whose requester gave up is neither made nor charged.
    expired: 'skip',
    commandTypes: Object.keys(commandHandlers) as ImageCommand[],
    handle: (_type, message) => runHandler(commandHandlers, deps, message),
    // The reply is stored now, so a redelivery replays it: the charge's dedupe entry is no longer needed.
    afterReply: (_type, message) =>
      deps.counts.release((message.value as Value).account_id, (message.value as Value).requested_at, message.meta.id),
    partitionsConcurrency: deps.partitionsConcurrency ?? 2,
    ...(deps.outboxIntervalMs ? { outboxIntervalMs: deps.outboxIntervalMs } : {}),
    ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
  });
}
