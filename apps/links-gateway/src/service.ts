import { createAccounts, createMembers } from '@platform/accounts';
import { createAnalyticsStore, createReports } from '@platform/analytics';
import { ensureTopics } from '@platform/kafka';
import { LINKS_TOPICS, createLinksStore } from '@platform/links';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import { buildApp } from './app.js';
import { createPlatformLimits } from './platform-limits.js';
import type { GatewayConfig } from './config.js';

/**
 * How long the metrics operations reuse closed buckets (ended more than a few minutes ago): a year's series
 * then reads its open month alone, and a click that reaches a closed bucket late shows this much later.
 */
const CLOSED_BUCKETS_TTL_MS = 5_000;

/** The gateway's own wiring; the runtime (libs/runtime) owns start order, probes and shutdown. */
export async function build(ctx: ServiceContext<GatewayConfig>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  await ensureTopics(ctx.kafka(), [LINKS_TOPICS.commands]);
  const app = await buildApp({
    logger: ctx.logger,
    platformLimits: createPlatformLimits(redis, {
      defaultHourly: settings.platformLimits.defaultHourly,
      overrides: settings.platformLimits.overrides,
      namespace: 'links',
      logger: ctx.logger,
    }),
    accounts: createAccounts({ connection: mongo, redis, pepper: settings.apiKeyPepper }),
    members: createMembers(mongo),
    store: createLinksStore(mongo),
    analytics: createReports(createAnalyticsStore(mongo, { closedTtlMs: CLOSED_BUCKETS_TTL_MS })),
    sealer: createSealer(settings.sealingKey),
    commands: ctx.commands({ replicaId: settings.replicaId, timeoutMs: settings.commandTimeoutMs }),
    commandTimeoutMs: settings.commandTimeoutMs,
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
