import {
  createCommandWorker,
  runHandler,
  type CommandResultStore,
  type KafkaClient,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import { OAUTH_TOPICS, type GrantRevocations, type OAuthStore, type OAuthWriter } from '@platform/oauth';
import type { Logger } from '@platform/telemetry';
import { commandHandlers, type OAuthCommand } from './handlers/index.js';

export interface WorkerDeps {
  kafka: KafkaClient;
  store: OAuthStore;
  writer: OAuthWriter;
  results: CommandResultStore;
  replies: ReplyTransport;
  revocations: Pick<GrantRevocations, 'revoke'>;
  logger: Logger;
  refreshTokenTtlSeconds: number;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export interface Worker {
  start(): Promise<void>;
  ready(): Promise<void>;
  stop(): Promise<void>;
}

export const OAUTH_WORKER_TOPICS = [OAUTH_TOPICS.commands, OAUTH_TOPICS.events];

export function createWorker(deps: WorkerDeps): Worker {
  const worker = createCommandWorker<OAuthCommand>({
    kafka: deps.kafka,
    name: 'oauth-worker',
    commandTopic: OAUTH_TOPICS.commands,
    topics: OAUTH_WORKER_TOPICS,
    outboxSources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    results: deps.results,
    replies: deps.replies,
    logger: deps.logger,
    commandTypes: Object.keys(commandHandlers) as OAuthCommand[],
    handle: (_type, message) =>
      runHandler(
        commandHandlers,
        {
          store: deps.store,
          writer: deps.writer,
          revocations: deps.revocations,
          refreshTokenTtlSeconds: deps.refreshTokenTtlSeconds,
        },
        message,
      ),
    ...(deps.partitionsConcurrency ? { partitionsConcurrency: deps.partitionsConcurrency } : {}),
    ...(deps.outboxIntervalMs ? { outboxIntervalMs: deps.outboxIntervalMs } : {}),
    ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
  });
  // The review outcome reaches the client's owner through the notifier (inbox and e-mail), from oauth.events.
  return worker;
}
