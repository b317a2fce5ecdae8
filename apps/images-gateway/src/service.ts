import { serviceAccounts } from '@platform/accounts';
import { IMAGES_TOPICS, createCompressionCounts, createOutputStore } from '@platform/images';
import { ensureTopics } from '@platform/kafka';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import { buildApp } from './app.js';
import type { config } from './config.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const accounts = serviceAccounts(ctx, { connection: mongo, redis, pepper: settings.apiKeyPepper });
  await ensureTopics(ctx.kafka(), [IMAGES_TOPICS.commands]);
  const app = await buildApp({
    logger: ctx.logger,
    accounts,
    commands: ctx.commands({ replicaId: settings.replicaId, timeoutMs: settings.commandTimeoutMs }),
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
  return { http: { app, port: settings.http.port, host: settings.http.host } };
}
