import { serviceAccounts, createMembers } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { ensureTopics, runConsumer, type ConsumerHandle } from '@platform/kafka';
import { NOTIFICATIONS_TOPICS, createNotificationsStore, inboxNotificationFromEvent } from '@platform/notifications';
import type { ServiceContext } from '@platform/runtime';
import { buildApp } from './app.js';
import type { GatewayConfig } from './config.js';
import { createWatchHub } from './watch-hub.js';
import { watchMetrics } from './watch-metrics.js';

/** The gateway's own wiring; the runtime (libs/runtime) owns start order, probes and shutdown. */
export async function build(ctx: ServiceContext<GatewayConfig>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const accounts = serviceAccounts(ctx, { connection: mongo, redis, pepper: settings.apiKeyPepper });
  await ensureTopics(ctx.kafka(), [NOTIFICATIONS_TOPICS.commands, NOTIFICATIONS_TOPICS.events]);
  const metrics = watchMetrics();
  const hub = createWatchHub(metrics);
  const members = createMembers(mongo);
  const app = await buildApp({
    logger: ctx.logger,
    accounts,
    members,
    store: createNotificationsStore(mongo),
    commands: ctx.commands({ replicaId: settings.replicaId, timeoutMs: settings.commandTimeoutMs }),
    hub,
    methods: settings.methods,
    watch: settings.watch,
    onSlowReader: (transport) => metrics.slowClosed.add(1, { transport }),
    bodyLimit: settings.http.bodyLimit,
    readiness: ctx.readiness,
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
  });
  let consumer: ConsumerHandle | undefined;
  let joined = false;
  // Not ready until the watch consumer has its partitions: a stream opened earlier would miss notifications.
  ctx.readiness.push({
    name: 'watch-consumer',
    check: async () => {
      if (!joined) throw new Error('the watch consumer has not joined its group yet');
    },
  });
  return {
    http: { app, port: settings.http.port, host: settings.http.host },
    /** Every replica reads every inbox event, from the newest on: a group of its own, named by the replica. */
    async start() {
      consumer = await runConsumer<typeof MessageTypeNames.InboxNotificationCreated>({
        client: ctx.kafka(),
        component: 'notifications-gateway',
        groupId: `notifications-watch.${settings.replicaId}`,
        topics: [NOTIFICATIONS_TOPICS.events],
        fromBeginning: false,
        partitionsConsumedConcurrently: 4,
        handlers: {
          [MessageTypeNames.InboxNotificationCreated]: async (message) => {
            const v = message.value;
            hub.publish({
              deploymentId: v.deployment_id,
              userId: v.user_id,
              notification: inboxNotificationFromEvent(v.user_id, v.notification),
              unreadCount: v.unread_count,
            });
          },
        },
      });
      void consumer.ready.then(() => (joined = true));
    },
    ready: () => consumer?.ready ?? Promise.resolve(),
    /** A user's open watch streams on this replica. */
    watchStreams: (deploymentId: string, userId: string) => hub.streamsOf(deploymentId, userId),
    async closeStreams() {
      hub.closeAll('the server is shutting down; reconnect');
    },
    async stop() {
      await consumer?.stop();
    },
  };
}
