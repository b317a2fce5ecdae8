import { createUserDirectory } from '@platform/identity';
import { ensureTopics } from '@platform/kafka';
import { OAUTH_TOPICS, createOAuthCredentials, createOAuthStore } from '@platform/oauth';
import { createFailureLimiter } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { SCHEDULING_TOPICS, accountReach, createSchedulingStore, describeInvite } from '@platform/scheduling';
import { buildApp } from './app.js';
import type { config } from './config.js';
import { createRedisSessionStore } from './session.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  await ensureTopics(ctx.kafka(), [OAUTH_TOPICS.commands, SCHEDULING_TOPICS.commands]);
  // Read only: which organizations a user belongs to decides whether ORG_ scopes may be granted.
  const scheduling = createSchedulingStore(mongo);
  const app = await buildApp({
    logger: ctx.logger,
    store: createOAuthStore(mongo),
    users: createUserDirectory(mongo),
    teamInvites: { describe: (token) => describeInvite(scheduling, token) },
    userReach: (userId) => accountReach(scheduling.membershipsOfUser(userId), scheduling.organizationIds),
    commands: ctx.commands({ replicaId: settings.replicaId, timeoutMs: settings.commandTimeoutMs }),
    credentials: createOAuthCredentials(settings.secretPepper),
    sessions: createRedisSessionStore(redis, { ttlSeconds: settings.sessionTtlSeconds }),
    loginFailures: createFailureLimiter(redis, {
      windowSeconds: settings.loginLimits.windowSeconds,
      namespace: 'web:login',
      message: 'Too many failed logins.',
    }),
    loginLimits: settings.loginLimits,
    sessionSecret: settings.sessionSecret,
    publicUrl: settings.publicUrl,
    issuer: settings.issuer,
    codeTtlSeconds: settings.codeTtlSeconds,
    trustProxy: settings.http.trustProxy,
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
    readiness: ctx.readiness,
  });
  return { http: { app, port: settings.http.port, host: settings.http.host } };
}
