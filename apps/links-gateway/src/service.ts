import { serviceAccounts, createMembers } from '@platform/accounts';
import { createAnalyticsStore, createReports } from '@platform/analytics';
import { ensureTopics } from '@platform/kafka';
import { LINKS_TOPICS, createLinksStore, redisDirectoryStamps } from '@platform/links';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import { buildApp } from './app.js';
import { createLinksIdempotency } from './idempotency.js';
import { createPlatformLimits } from './platform-limits.js';
import type { GatewayConfig } from './config.js';

/** The gateway's own wiring; the runtime (libs/runtime) owns start order, probes and shutdown. */
export async function build(ctx: ServiceContext<GatewayConfig>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const accounts = serviceAccounts(ctx, { connection: mongo, redis, pepper: settings.apiKeyPepper });
  await ensureTopics(ctx.kafka(), [LINKS_TOPICS.commands]);
  const app = await buildApp({
    logger: ctx.logger,
    platformLimits: createPlatformLimits(redis, {
      defaultHourly: settings.platformLimits.defaultHourly,
      overrides: settings.platformLimits.overrides,
      namespace: 'links',
      logger: ctx.logger,
    }),
    accounts,
    members: createMembers(mongo),
    // The profile, group and short-domain reads of every shorten, kept while the links writer's stamps hold.
    store: createLinksStore(mongo, { directory: { stamps: redisDirectoryStamps(redis, `links:${mongo.name}`) } }),
    // Closed buckets reused for a few seconds: a year's series or facets then read the open month alone.
    analytics: createReports(createAnalyticsStore(mongo, { closedTtlMs: settings.metricsClosedTtlMs })),
    sealer: createSealer(settings.sealingKey),
    idempotency: createLinksIdempotency(redis),
    commands: ctx.commands({ replicaId: settings.replicaId, timeoutMs: settings.commandTimeoutMs }),
    publicBaseUrl: settings.publicBaseUrl,
    defaultDomain: settings.defaultDomain,
    scheme: settings.scheme,
    bodyLimit: settings.http.bodyLimit,
    trustProxy: settings.http.trustProxy,
    readiness: ctx.readiness,
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
  });
  return { http: { app, port: settings.http.port, host: settings.http.host } };
}
