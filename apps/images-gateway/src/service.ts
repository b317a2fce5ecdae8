import { createAccounts } from '@platform/accounts';
import { IMAGES_TOPICS, createCompressionCounts, createOutputStore } from '@platform/images';
import { createCommandBus, createPublisher, ensureTopics } from '@platform/kafka';
import { createRedisReplyTransport } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import { buildApp } from './app.js';
import type { config } from './config.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const kafka = ctx.kafka();
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  await ensureTopics(kafka, [IMAGES_TOPICS.commands]);
  const publisher = createPublisher(kafka, { source: `/${ctx.name}` });
  const commands = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    replicaId: settings.replicaId,
    defaultTimeoutMs: settings.commandTimeoutMs,
    component: ctx.name,
  });
  const app = await buildApp({
    logger: ctx.logger,
    accounts: createAccounts({ connection: mongo, redis, pepper: settings.apiKeyPepper }),
    commands,
    outputs: createOutputStore(redis, { retentionSeconds: settings.retentionSeconds }),
    counts: createCompressionCounts(mongo),
    sealer: createSealer(settings.sealingKey),
    publicBaseUrl: settings.publicBaseUrl,
    commandTimeoutMs: settings.commandTimeoutMs,
    uploadLimitBytes: settings.uploadLimitBytes,
    monthlyQuota: settings.monthlyQuota,
    trustProxy: settings.http.trustProxy,
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
    readiness: ctx.readiness,
  });
  return {
    http: { app, port: settings.http.port, host: settings.http.host },
    async start() {
      await publisher.connect();
      await commands.start();
    },
    async stop() {
      await commands.stop();
      await publisher.disconnect();
    },
  };
}
