import { MessageTypeNames } from '@platform/contracts';
import type { HttpApp } from '@platform/http';
import { createUserDirectory, type SchedulingUserDoc, type UserDirectory } from '@platform/identity';
import type { CommandBus, CommandValue, KafkaClient } from '@platform/kafka';
import type { MongoConnection } from '@platform/mongo';
import {
  NO_REACH,
  createAccessTokens,
  createGrantRevocations,
  createOAuthCredentials,
  createOAuthStore,
  type AccessTokens,
  type GrantRevocations,
  type OAuthCredentials,
  type OAuthStore,
  type UserReach,
} from '@platform/oauth';
import { createFailureLimiter as createLoginLimiter, type Redis } from '@platform/redis';
import { startService } from '@platform/runtime/start';
import { createSchedulingStore, describeInvite, type SchedulingStore } from '@platform/scheduling';
import { generateId } from '@platform/secrets';
import { testLogger } from './test-logger.js';
import { freePort, isolatedAppEnv, resolveInfra, uniqueName } from '@platform/testing';
// The apps are composed in-process from the same builders their main.ts runs (service.ts), with their own
// configuration read from an isolated environment.
import { config as notifierConfig } from '../../apps/notifier/src/config.js';
import { build as buildNotifier } from '../../apps/notifier/src/service.js';
import { config as oauthWorkerConfig } from '../../apps/oauth-worker/src/config.js';
import { build as buildOAuthWorker } from '../../apps/oauth-worker/src/service.js';
import { config as gatewayConfig } from '../../apps/scheduling-gateway/src/config.js';
import type { FailureLimits } from '../../apps/scheduling-gateway/src/failure-limiter.js';
import { build as buildGateway } from '../../apps/scheduling-gateway/src/service.js';
import { buildApp as buildWebApp } from '../../apps/scheduling-web/src/app.js';
import { createRedisSessionStore } from '../../apps/scheduling-web/src/session.js';
import { config as schedulingWorkerConfig } from '../../apps/scheduling-worker/src/config.js';
import { build as buildSchedulingWorker } from '../../apps/scheduling-worker/src/service.js';
import { TEST_OAUTH_SECRETS, TEST_SECRETS } from './secrets.js';

export interface OAuthStack {
  gateway: HttpApp;
  /** The gateway's own listener (plain HTTP), for clients outside the process. */
  url: string;
  store: OAuthStore;
  /** The scheduling model (teams, event types, schedules, bookings), written by a scheduling worker. */
  scheduling: SchedulingStore;
  users: UserDirectory;
  mongo: MongoConnection;
  redis: Redis;
  /** The Kafka client of the stack's gateway (observers consume with it). */
  kafka: KafkaClient;
  /** The gateway's command bus (tests send commands on it as the gateway and the web app do). */
  commands: CommandBus;
  accessTokens: AccessTokens;
  credentials: OAuthCredentials;
  revocations: GrantRevocations;
  name: string;
  issuer: string;
  /** A user of the scheduling service (password "correct horse battery"). */
  newUser(role?: 'user' | 'admin'): Promise<SchedulingUserDoc>;
  /** Sends one OAuth command as the web app does and returns the worker's reply. */
  send<T extends keyof typeof OAuthCommandTypes>(
    type: T,
    value: CommandValue<(typeof OAuthCommandTypes)[T]>,
    key?: string,
  ): Promise<unknown>;
  close(): Promise<void>;
}

const OAuthCommandTypes = {
  CreateClient: MessageTypeNames.CreateClient,
  UpdateClient: MessageTypeNames.UpdateClient,
  ReviewClient: MessageTypeNames.ReviewClient,
  GenerateClientSecret: MessageTypeNames.GenerateClientSecret,
  RevokeClientSecret: MessageTypeNames.RevokeClientSecret,
  IssueAuthorizationCode: MessageTypeNames.IssueAuthorizationCode,
  ExchangeAuthorizationCode: MessageTypeNames.ExchangeAuthorizationCode,
} as const;

export const TEST_PASSWORD = 'correct horse battery';
export const WEB_URL = 'http://127.0.0.1:3000';

/**
 * scheduling-gateway, oauth-worker, scheduling-worker and the notifier in one process, each started by the runtime from its
 * own service builder, on real Kafka, FerretDB, Redis and SMTP, isolated by a unique database, topic prefix
 * and Redis key prefix.
 */
export async function startOAuthStack(
  options: { failureLimits?: Partial<FailureLimits>; smtpUrl?: string } = {},
): Promise<OAuthStack> {
  const infra = resolveInfra();
  const name = uniqueName('oa');
  const issuer = 'http://127.0.0.1:3001';
  const limits = { perIp: 1000, perClient: 1000, windowSeconds: 60, ...options.failureLimits };
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    ...TEST_OAUTH_SECRETS,
    PORT: String(await freePort()),
    PUBLIC_BASE_URL: issuer,
    WEB_PUBLIC_URL: WEB_URL,
    COMMAND_TIMEOUT_MS: '20000',
    TOKEN_FAILURES_PER_IP: String(limits.perIp),
    TOKEN_FAILURES_PER_CLIENT: String(limits.perClient),
    TOKEN_FAILURE_WINDOW_SECONDS: String(limits.windowSeconds),
    REDIS_KEY_PREFIX: `${name}:`,
    SMTP_URL: options.smtpUrl ?? infra.smtpUrl,
    SMTP_TIMEOUT_MS: '5000',
    OAUTH_REFRESH_TOKEN_TTL_SECONDS: '3600',
    TEAM_INVITE_TTL_SECONDS: '3600',
    OUTBOX_INTERVAL_MS: '200',
  });
  const logger = testLogger(name);
  const workers = [
    await startService('oauth-worker', buildOAuthWorker, { settings: oauthWorkerConfig.read(env), logger }),
    await startService('scheduling-worker', buildSchedulingWorker, {
      settings: schedulingWorkerConfig.read(env),
      logger,
    }),
    // The review outcome e-mails are the notifier's.
    await startService('notifier', buildNotifier, {
      settings: notifierConfig.read({ ...env, NOTIFIER_SWEEP_MS: '200' }),
      logger,
    }),
  ];
  const gatewaySettings = gatewayConfig.read(env);
  const gateway = await startService('scheduling-gateway', buildGateway, { settings: gatewaySettings, logger });
  // The runtime starts consumers without waiting for their groups; a test's first command should not.
  await Promise.all(workers.map((w) => w.service.ready?.()));
  const mongo = await gateway.context.mongo();
  const redis = gateway.context.redis();
  const users = createUserDirectory(mongo);
  await users.ensureIndexes();
  const commands = gateway.context.commands({
    replicaId: gatewaySettings.replicaId,
    timeoutMs: gatewaySettings.commandTimeoutMs,
  });
  const revocations = createGrantRevocations(redis);
  await revocations.start();

  return {
    gateway: gateway.service.http.app,
    url: gateway.url!,
    store: createOAuthStore(mongo),
    scheduling: createSchedulingStore(mongo),
    users,
    mongo,
    redis,
    kafka: gateway.context.kafka(),
    commands,
    accessTokens: createAccessTokens({ keys: [TEST_OAUTH_SECRETS.OAUTH_ACCESS_TOKEN_KEYS] }),
    credentials: createOAuthCredentials(TEST_OAUTH_SECRETS.OAUTH_SECRET_PEPPER),
    revocations,
    name,
    issuer,
    newUser: (role = 'user') =>
      users.create({
        email: `${generateId('u').toLowerCase()}@example.com`,
        name: 'Test User',
        password: TEST_PASSWORD,
        role,
      }),
    send: (type, value, key) => commands.send(OAuthCommandTypes[type], key ?? value.client_id, value),
    async close() {
      await revocations.stop();
      for (const worker of workers) await worker.stop();
      await mongo.dropDatabase().catch(() => undefined);
      await gateway.stop();
    },
  };
}

/** scheduling-web on the stack's worker and stores (pages driven with inject, as a browser would). */
export async function startOAuthWeb(
  stack: OAuthStack,
  options: { userReach?: (userId: string) => Promise<UserReach> } = {},
): Promise<HttpApp> {
  const web = await buildWebApp({
    logger: testLogger(`${stack.name}-web`),
    readiness: [],
    sessionSecret: TEST_OAUTH_SECRETS.SESSION_SECRET,
    store: stack.store,
    users: stack.users,
    userReach: options.userReach ?? (async () => NO_REACH),
    teamInvites: { describe: (token) => describeInvite(stack.scheduling, token) },
    commands: stack.commands,
    credentials: stack.credentials,
    sessions: createRedisSessionStore(stack.redis, { ttlSeconds: 3600, keyPrefix: `${stack.name}:web:session:` }),
    loginFailures: createLoginLimiter(stack.redis, {
      windowSeconds: 60,
      namespace: `${stack.name}:web:login`,
      message: 'Too many failed logins.',
    }),
    loginLimits: { perIp: 1000, perEmail: 1000 },
    publicUrl: WEB_URL,
    issuer: stack.issuer,
    codeTtlSeconds: 120,
  });
  await web.ready();
  return web;
}
