import { serviceAccounts } from '@platform/accounts';
import { ensureTopics } from '@platform/kafka';
import type { ServiceContext } from '@platform/runtime';
import { USERMGMT_TOPICS, createUsermgmtStore } from '@platform/usermgmt';
import { WEBHOOK_TOPICS, createDeliveryStore } from '@platform/webhooks';
import { createSealer } from '@platform/secrets';
import { buildApp } from './app.js';
import type { GatewayConfig } from './config.js';

/** The gateway's own wiring; the runtime (libs/runtime) owns start order, probes and shutdown. */
export async function build(ctx: ServiceContext<GatewayConfig>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const accounts = serviceAccounts(ctx, { connection: mongo, redis, pepper: settings.apiKeyPepper });
  await ensureTopics(ctx.kafka(), [USERMGMT_TOPICS.commands, USERMGMT_TOPICS.events, WEBHOOK_TOPICS.deliveries]);
  const app = await buildApp({
    logger: ctx.logger,
    accounts,
    store: createUsermgmtStore(mongo),
    commands: ctx.commands({ replicaId: settings.replicaId, timeoutMs: settings.commandTimeoutMs }),
    publisher: ctx.publisher(),
    deliveries: createDeliveryStore(mongo),
    redis,
    sealer: createSealer(settings.sealingKey),
    bodyLimit: settings.http.bodyLimit,
    readiness: ctx.readiness,
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
  });
  return { http: { app, port: settings.http.port, host: settings.http.host } };
}
