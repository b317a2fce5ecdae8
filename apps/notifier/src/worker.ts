import type { Accounts, Members } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import {
  createCommandWorker,
  reaction,
  runHandler,
  type CommandResultStore,
  type CommandWorker,
  type KafkaClient,
  type Publisher,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import { NOTIFICATIONS_TOPICS, type NotificationsStore, type NotificationsWriter } from '@platform/notifications';
import type { Logger } from '@platform/telemetry';
import { WEBHOOK_TOPICS } from '@platform/webhooks';
import type { Dispatcher } from './dispatcher.js';
import type { Kicker } from './handlers/deps.js';
import { commandHandlers, type NotificationCommand } from './handlers/index.js';
import { notifyQuotaNearlyUsed } from './reactions/image-quota.js';
import { notifyClientReviewed } from './reactions/oauth-review.js';

export interface WorkerDeps {
  kafka: KafkaClient;
  store: NotificationsStore;
  writer: NotificationsWriter;
  accounts: Accounts;
  members: Members;
  results: CommandResultStore;
  replies: ReplyTransport;
  logger: Logger;
  methods: ReadonlyArray<'smtp' | 'webhook'>;
  webPublicUrl: string;
  imageQuotaNotifyPercent: number;
  /** Made once the worker's publisher and relay exist (the webhook method publishes; every method's events are relayed). */
  dispatcher: (tools: { publisher: () => Publisher }) => Dispatcher;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export const NOTIFIER_TOPICS = [
  NOTIFICATIONS_TOPICS.commands,
  NOTIFICATIONS_TOPICS.events,
  WEBHOOK_TOPICS.deliveries,
  'oauth.events',
  'images.events',
];

/**
 * The notifier: commands from the gateway (one group), the platform's events that become notifications (a
 * group each), and the dispatcher that sends what they queue, in order, through each method.
 */
export function createWorker(deps: WorkerDeps): CommandWorker {
  let dispatcher: Dispatcher | undefined;
  // Typed as the interface, so that every argument reaches the dispatcher (one dropped here once cost a second).
  const kicker: Kicker = {
    kick: (...args) => dispatcher?.kick(...args),
    kickDeployment: async (deploymentId) => dispatcher?.kickDeployment(deploymentId),
  };
  const producerDeps = { ...deps, dispatcher: kicker };
  const worker: CommandWorker = createCommandWorker<NotificationCommand>({
    kafka: deps.kafka,
    name: 'notifier',
    commandTopic: NOTIFICATIONS_TOPICS.commands,
    topics: NOTIFIER_TOPICS,
    outboxSources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    results: deps.results,
    replies: deps.replies,
    logger: deps.logger,
    commandTypes: Object.keys(commandHandlers) as NotificationCommand[],
    handle: (_type, message) =>
      runHandler(
        commandHandlers,
        {
          store: deps.store,
          writer: deps.writer,
          members: deps.members,
          methods: deps.methods,
          dispatcher: kicker,
        },
        message,
      ),
    reactions: () => [
      reaction<typeof MessageTypeNames.ClientAccepted | typeof MessageTypeNames.ClientRejected>({
        groupId: 'notifier-oauth-reviews',
        topics: ['oauth.events'],
        handlers: {
          [MessageTypeNames.ClientAccepted]: (message) => notifyClientReviewed(producerDeps, message),
          [MessageTypeNames.ClientRejected]: (message) => notifyClientReviewed(producerDeps, message),
        },
      }),
      reaction<typeof MessageTypeNames.ImageCompressed>({
        groupId: 'notifier-image-quota',
        topics: ['images.events'],
        handlers: {
          [MessageTypeNames.ImageCompressed]: (message) =>
            notifyQuotaNearlyUsed({ ...producerDeps, percent: deps.imageQuotaNotifyPercent }, message),
        },
      }),
    ],
    background: () => {
      dispatcher = deps.dispatcher({ publisher: () => worker.publisher });
      return [dispatcher];
    },
    ...(deps.partitionsConcurrency ? { partitionsConcurrency: deps.partitionsConcurrency } : {}),
    ...(deps.outboxIntervalMs ? { outboxIntervalMs: deps.outboxIntervalMs } : {}),
    ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
  });
  return worker;
}
