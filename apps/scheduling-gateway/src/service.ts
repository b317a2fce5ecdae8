import { createUserDirectory } from '@platform/identity';
import { ensureTopics } from '@platform/kafka';
import {
  OAUTH_TOPICS,
  createAccessTokens,
  createBearerCheck,
  createGrantRevocations,
  createOAuthCredentials,
  createOAuthStore,
} from '@platform/oauth';
import type { ServiceContext } from '@platform/runtime';
import { SCHEDULING_TOPICS, createSchedulingStore } from '@platform/scheduling';
import { buildApp } from './app.js';
import type { config } from './config.js';
import { createFailureLimiter } from './failure-limiter.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  await ensureTopics(ctx.kafka(), [OAUTH_TOPICS.commands, OAUTH_TOPICS.events, SCHEDULING_TOPICS.commands]);
  const revocations = createGrantRevocations(redis);
  const accessTokens = createAccessTokens({ keys: settings.accessTokenKeys });
  const app = await buildApp({
    logger: ctx.logger,
    store: createOAuthStore(mongo),
    scheduling: createSchedulingStore(mongo),
    users: createUserDirectory(mongo),
    commands: ctx.commands({ replicaId: settings.replicaId, timeoutMs: settings.commandTimeoutMs }),
    accessTokens,
    credentials: createOAuthCredentials(settings.secretPepper),
    bearer: createBearerCheck({ accessTokens, revocations }),
    failures: createFailureLimiter(redis, settings.failureLimits, `${settings.redisKeyPrefix}oauth`),
    issuer: settings.issuer,
    webUrl: settings.webUrl,
    bodyLimit: settings.http.bodyLimit,
    trustProxy: settings.http.trustProxy,
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
    readiness: ctx.readiness,
  });
  return {
    http: { app, port: settings.http.port, host: settings.http.host },
    start: () => revocations.start(),
    stop: () => revocations.stop(),
  };
}
