import { MessageTypeNames } from '@platform/contracts';
import {
  createCommandProcessor,
  createOutboxRelay,
  createPublisher,
  ensureTopics,
  runConsumer,
  type CommandResultStore,
  type ConsumerHandle,
  type KafkaClient,
  type OutboxHint,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import { OAUTH_TOPICS, type GrantRevocations, type OAuthStore } from '@platform/oauth';
import type { Logger } from '@platform/telemetry';
import { commandHandlers, type HandlerDeps, type OAuthCommand } from './handlers/index.js';
import type { ReviewMailer } from './review-mailer.js';

export interface WorkerDeps {
  kafka: KafkaClient;
  store: OAuthStore;
  results: CommandResultStore;
  replies: ReplyTransport;
  revocations: Pick<GrantRevocations, 'revoke'>;
  mailer: ReviewMailer;
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

export const OAUTH_WORKER_TOPICS = [
  { topic: OAUTH_TOPICS.commands },
  { topic: OAUTH_TOPICS.events },
  { topic: `${OAUTH_TOPICS.commands}.dlq`, partitions: 1 },
  { topic: `${OAUTH_TOPICS.events}.dlq`, partitions: 1 },
];

export function createWorker(deps: WorkerDeps): Worker {
  const publisher = createPublisher(deps.kafka, { source: '/oauth-worker' });
  const relay = createOutboxRelay({
    publisher,
    sources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    logger: deps.logger,
    intervalMs: deps.outboxIntervalMs ?? 1000,
  });
  const processor = createCommandProcessor({ store: deps.results, transport: deps.replies, logger: deps.logger });
  const handlerDeps: HandlerDeps = { store: deps.store, revocations: deps.revocations, refreshTokenTtlSeconds: deps.refreshTokenTtlSeconds };
  const consumers: ConsumerHandle[] = [];

  function command<T extends OAuthCommand>(type: T) {
    const handler = commandHandlers[type] as (d: HandlerDeps, m: Parameters<(typeof commandHandlers)[T]>[1]) => Promise<unknown>;
    return processor.wrap<T>(async (message) => {
      const touched: OutboxHint[] = [];
      try {
        return await handler({ ...handlerDeps, touched: (source, docId) => touched.push({ source, docId }) }, message);
      } finally {
        // Events written with the change (or with a revocation before an error) go out right away, read by id.
        if (touched.length > 0) relay.wake(touched);
      }
    });
  }

  return {
    async start() {
      await ensureTopics(deps.kafka, OAUTH_WORKER_TOPICS);
      await publisher.connect();
      relay.start();
      consumers.push(
        await runConsumer({
          client: deps.kafka,
          groupId: 'oauth-worker',
          component: 'oauth-worker',
          topics: [OAUTH_TOPICS.commands],
          onDeadLetter: (meta) => processor.replyDeadLettered(meta),
          ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
          partitionsConsumedConcurrently: deps.partitionsConcurrency ?? 4,
          handlers: {
            [MessageTypeNames.CreateClient]: command(MessageTypeNames.CreateClient),
            [MessageTypeNames.UpdateClient]: command(MessageTypeNames.UpdateClient),
            [MessageTypeNames.ReviewClient]: command(MessageTypeNames.ReviewClient),
            [MessageTypeNames.GenerateClientSecret]: command(MessageTypeNames.GenerateClientSecret),
            [MessageTypeNames.RevokeClientSecret]: command(MessageTypeNames.RevokeClientSecret),
            [MessageTypeNames.IssueAuthorizationCode]: command(MessageTypeNames.IssueAuthorizationCode),
            [MessageTypeNames.ExchangeAuthorizationCode]: command(MessageTypeNames.ExchangeAuthorizationCode),
            [MessageTypeNames.RefreshAccessToken]: command(MessageTypeNames.RefreshAccessToken),
            [MessageTypeNames.RevokeGrant]: command(MessageTypeNames.RevokeGrant),
          },
        }),
      );
      consumers.push(
        await runConsumer({
          client: deps.kafka,
          groupId: 'oauth-review-mailer',
          component: 'oauth-worker',
          topics: [OAUTH_TOPICS.events],
          maxAttempts: 8,
          handlers: {
            [MessageTypeNames.ClientAccepted]: (message) => deps.mailer.handle(message),
            [MessageTypeNames.ClientRejected]: (message) => deps.mailer.handle(message),
          },
        }),
      );
    },
    async ready() {
      await Promise.all(consumers.map((c) => c.ready));
    },
    async stop() {
      for (const consumer of consumers) await consumer.stop();
      await relay.stop();
      await publisher.disconnect();
      deps.mailer.close();
    },
  };
}
