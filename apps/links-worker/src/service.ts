import { createMembers } from '@platform/accounts';
import { createCommandWorker, runHandler } from '@platform/kafka';
import { LINKS_TOPICS, createLinksStore, createLinksWriter } from '@platform/links';
import { createMongoCommandResultStore, createMongoOutboxSource } from '@platform/mongo';
import { createRedisReplyTransport } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import type { LinksWorkerConfig } from './config.js';
import { commandHandlers, type LinksCommand } from './handlers/index.js';

/** The links worker: owns every links collection; one command group, events from the links it writes. */
export async function build(ctx: ServiceContext<LinksWorkerConfig>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const store = createLinksStore(mongo);
  const writer = createLinksWriter(mongo);
  const members = createMembers(mongo);
  await Promise.all([store.ensureIndexes(), members.ensureIndexes()]);
  const results = createMongoCommandResultStore(mongo, { sealer: createSealer(settings.sealingKey), collection: 'links_command_results' });
  await results.ensureIndexes();
  ctx.sweep([results.collection]);
  const worker = createCommandWorker<LinksCommand>({
    kafka: ctx.kafka(),
    name: 'links-worker',
    commandTopic: LINKS_TOPICS.commands,
    topics: [LINKS_TOPICS.commands, LINKS_TOPICS.events, LINKS_TOPICS.clicks],
    outboxSources: store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    results,
    replies: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    logger: ctx.logger,
    commandTypes: Object.keys(commandHandlers) as LinksCommand[],
    handle: (_type, message, touched) => runHandler(commandHandlers, { store, writer, members, touched }, message),
    partitionsConcurrency: settings.partitionsConcurrency,
    outboxIntervalMs: settings.outboxIntervalMs,
    sessionTimeoutMs: settings.sessionTimeoutMs,
  });
  return { start: () => worker.start(), ready: () => worker.ready(), stop: () => worker.stop() };
}
