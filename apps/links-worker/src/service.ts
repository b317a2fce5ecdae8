import { createMembers, rememberingMembers } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { createCommandWorker, reaction, runHandler } from '@platform/kafka';
import { LINKS_TOPICS, createLinksStore, createLinksWriter, redisDirectoryStamps } from '@platform/links';
import { createMongoCommandResultStore, createMongoOutboxSource } from '@platform/mongo';
import { createRedisReplyTransport } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import { WEBHOOK_TOPICS } from '@platform/webhooks';
import type { LinksWorkerConfig } from './config.js';
import { commandHandlers, type LinksCommand } from './handlers/index.js';
import { createRedirectMarks } from './redirect-marks.js';
import { primedReusableLinks } from './reusable-links.js';
import { createWebhookFanOut } from './webhooks/fanout.js';
import { createWebhookState } from './webhooks/state.js';

type N = typeof MessageTypeNames;

/** What a click handler returns when the link is already marked and no webhook hears clicks (almost always). */
const NOTHING_TO_DO = Promise.resolve();

/**
 * The links worker: owns every links collection; one command group, events from the links it writes, and two
 * reactions: link events and clicks (fanned out to webhooks; a link's first redirect noted for the QR code
 * delete rule), and the delivery layer's reports made webhook state.
 */
export async function build(ctx: ServiceContext<LinksWorkerConfig>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const stamps = redisDirectoryStamps(redis, `links:${mongo.name}`);
  const store = createLinksStore(mongo, { directory: { stamps } });
  const writer = createLinksWriter(mongo, stamps);
  const storedMembers = createMembers(mongo);
  // A link's creator is named by their user name, which never changes: read once per user, not per link.
  const members = rememberingMembers(storedMembers);
  const sealer = createSealer(settings.sealingKey);
  await Promise.all([store.ensureIndexes(), storedMembers.ensureIndexes()]);
  const results = createMongoCommandResultStore(mongo, { sealer, collection: 'links_command_results' });
  await results.ensureIndexes();
  ctx.sweep([results.collection]);
  const state = createWebhookState({ store, writer, logger: ctx.logger });
  const reusables = primedReusableLinks(store);
  const worker = createCommandWorker<LinksCommand>({
    kafka: ctx.kafka(),
    name: 'links-worker',
    commandTopic: LINKS_TOPICS.commands,
    topics: [
      LINKS_TOPICS.commands,
      LINKS_TOPICS.events,
      LINKS_TOPICS.clicks,
      WEBHOOK_TOPICS.deliveries,
      WEBHOOK_TOPICS.events,
    ],
    outboxSources: store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    results,
    replies: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    logger: ctx.logger,
    commandTypes: Object.keys(commandHandlers) as LinksCommand[],
    handle: (_type, message) =>
      runHandler(
        commandHandlers,
        { store, writer, members, reusables, sealer, apiBase: settings.publicBaseUrl },
        message,
      ),
    // A group's shortens, handled in turn, find the links to return again with one read per batch.
    prefetch: (messages) => reusables.prime(messages),
    reactions: ({ publisher }) => {
      const fanOut = createWebhookFanOut({ store, publisher, apiBase: settings.publicBaseUrl });
      const redirects = createRedirectMarks(writer);
      return [
        reaction<N['ShortlinkClicked'] | N['ShortlinkCreated'] | N['ShortlinkChanged']>({
          groupId: 'links-reactions',
          topics: [LINKS_TOPICS.clicks, LINKS_TOPICS.events],
          // Every click passes here; almost all of them return at once (no webhook, link already marked).
          batched: true,
          partitionsConsumedConcurrently: settings.partitionsConcurrency,
          handlers: {
            [MessageTypeNames.ShortlinkClicked]: (message) => {
              const [marking, sending] = [redirects.note(message), fanOut.clicked(message)];
              if (marking && sending) return Promise.all([marking, sending]).then(() => undefined);
              return marking ?? sending ?? NOTHING_TO_DO;
            },
            [MessageTypeNames.ShortlinkCreated]: (message) => fanOut.created(message),
            [MessageTypeNames.ShortlinkChanged]: (message) => fanOut.changed(message),
          },
        }),
        reaction<N['TargetFailing'] | N['DeliveryOutcome'] | N['TargetDisabled']>({
          groupId: 'links-webhook-state',
          topics: [WEBHOOK_TOPICS.events],
          handlers: {
            [MessageTypeNames.TargetFailing]: (message) => state.failing(message),
            [MessageTypeNames.DeliveryOutcome]: (message) => state.outcome(message),
            [MessageTypeNames.TargetDisabled]: (message) => state.disabled(message),
          },
        }),
      ];
    },
    partitionsConcurrency: settings.partitionsConcurrency,
    outboxIntervalMs: settings.outboxIntervalMs,
    sessionTimeoutMs: settings.sessionTimeoutMs,
  });
  return { start: () => worker.start(), ready: () => worker.ready(), stop: () => worker.stop() };
}
