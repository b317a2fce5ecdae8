import type { UserDirectory } from '@platform/identity';
import {
  createCommandWorker,
  runHandler,
  systemClock,
  type CommandResultStore,
  type CommandWorker,
  type KafkaClient,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import { SCHEDULING_TOPICS, type SchedulingStore, type SchedulingWriter } from '@platform/scheduling';
import type { Logger } from '@platform/telemetry';
import { commandHandlers, type HandlerDeps, type SchedulingCommand } from './handlers/index.js';

export interface WorkerDeps {
  kafka: KafkaClient;
  store: SchedulingStore;
  writer: SchedulingWriter;
  users: UserDirectory;
  results: CommandResultStore;
  replies: ReplyTransport;
  logger: Logger;
  webUrl: string;
  inviteTtlSeconds: number;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export type Worker = CommandWorker;

export const SCHEDULING_WORKER_TOPICS = [SCHEDULING_TOPICS.commands, SCHEDULING_TOPICS.events];

export function createWorker(deps: WorkerDeps): Worker {
  const handlerDeps: HandlerDeps = {
    store: deps.store,
    writer: deps.writer,
    users: deps.users,
    webUrl: deps.webUrl,
    inviteTtlSeconds: deps.inviteTtlSeconds,
    clock: systemClock,
  };
  return createCommandWorker<SchedulingCommand>({
    kafka: deps.kafka,
    name: 'scheduling-worker',
    commandTopic: SCHEDULING_TOPICS.commands,
    topics: SCHEDULING_WORKER_TOPICS,
    outboxSources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    results: deps.results,
    replies: deps.replies,
    logger: deps.logger,
    commandTypes: Object.keys(commandHandlers) as SchedulingCommand[],
    handle: (_type, message) => runHandler(commandHandlers, handlerDeps, message),
    ...(deps.partitionsConcurrency ? { partitionsConcurrency: deps.partitionsConcurrency } : {}),
    ...(deps.outboxIntervalMs ? { outboxIntervalMs: deps.outboxIntervalMs } : {}),
    ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
  });
}
