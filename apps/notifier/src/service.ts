import { serviceAccounts, createMembers } from '@platform/accounts';
import { createMongoCommandResultStore } from '@platform/mongo';
import { createNotificationsStore, createNotificationsWriter } from '@platform/notifications';
import { createRedisReplyTransport } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import type { NotifierConfig } from './config.js';
import { createDispatcher } from './dispatcher.js';
import { createLaneLeases } from './lane-leases.js';
import { createInboxMethod } from './channels/inbox.js';
import { createSmtpMethod } from './channels/smtp.js';
import { createWebhookMethod } from './channels/webhook.js';
import { createWorker } from './worker.js';

export async function build(ctx: ServiceContext<NotifierConfig>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const accounts = serviceAccounts(ctx, { connection: mongo, redis, pepper: settings.apiKeyPepper });
  const sealer = createSealer(settings.sealingKey);
  const store = createNotificationsStore(mongo);
  const writer = createNotificationsWriter(mongo);
  const members = createMembers(mongo);
  await Promise.all([store.ensureIndexes(), members.ensureIndexes()]);
  const results = createMongoCommandResultStore(mongo, { sealer, collection: 'notif_command_results' });
  await results.ensureIndexes();
  ctx.sweep([results.collection]);
  const smtp = createSmtpMethod(settings.mail);
  ctx.onClose('smtp', () => smtp.close());
  const webhookTarget = settings.webhook
    ? {
        url: settings.webhook.url,
        sealedSecret: sealer.seal(settings.webhook.secret),
        rateLimit: settings.webhook.rateLimit,
        ordered: settings.webhook.ordered,
      }
    : null;
  const worker = createWorker({
    kafka: ctx.kafka(),
    store,
    writer,
    accounts,
    members,
    results,
    replies: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    logger: ctx.logger,
    methods: settings.methods,
    webPublicUrl: settings.webPublicUrl,
    imageQuotaNotifyPercent: settings.imageQuotaNotifyPercent,
    dispatcher: ({ publisher }) =>
      createDispatcher({
        store,
        writer,
        logger: ctx.logger,
        senders: {
          inbox: createInboxMethod({ writer }),
          // SMTP is always there: templates may name it (the OAuth review e-mails) whatever the default methods.
          smtp: (doc) => smtp.send(doc),
          webhook: webhookTarget ? createWebhookMethod(webhookTarget, publisher) : null,
        },
        // One queue per store database, as the webhook dispatcher's: deployments sharing a Redis stay apart.
        leases: createLaneLeases(redis, { name: `notifier:${mongo.name}`, holder: settings.dispatch.holder }),
        maxAttempts: settings.dispatch.maxAttempts,
        retryBaseMs: settings.dispatch.retryBaseMs,
        sweepMs: settings.dispatch.sweepMs,
        leaseMs: settings.dispatch.leaseMs,
        sendTimeoutMs: settings.mail.timeoutMs * 3,
      }),
    partitionsConcurrency: settings.partitionsConcurrency,
    outboxIntervalMs: settings.outboxIntervalMs,
    sessionTimeoutMs: settings.sessionTimeoutMs,
  });
  return { start: () => worker.start(), ready: () => worker.ready(), stop: () => worker.stop() };
}
