import { MessageTypeNames } from '@platform/contracts';
import type { HttpApp } from '@platform/http';
import { createUserDirectory, type SchedulingUserDoc, type UserDirectory } from '@platform/identity';
import { createCommandBus, createKafka, createPublisher, ensureTopics, type CommandBus, type KafkaClient, type Publisher } from '@platform/kafka';
import { connectMongo, createMongoCommandResultStore, type MongoConnection } from '@platform/mongo';
import {
  NO_REACH,
  OAUTH_TOPICS,
  createAccessTokens,
  createBearerCheck,
  createGrantRevocations,
  createOAuthCredentials,
  createOAuthStore,
  createOAuthWriter,
  type AccessTokens,
  type GrantRevocations,
  type OAuthCredentials,
  type OAuthStore,
  type UserReach,
} from '@platform/oauth';
import { createFailureLimiter as createLoginLimiter, createRedis, createRedisReplyTransport, type Redis } from '@platform/redis';
import { SCHEDULING_TOPICS, createSchedulingStore, createSchedulingWriter, describeInvite, type SchedulingStore } from '@platform/scheduling';
import { createSealer, generateId } from '@platform/secrets';
import { createLogger } from '@platform/telemetry';
import { resolveInfra, uniqueName } from '@platform/testing';
// Apps are composed in-process through their factories (the same ones main.ts wires).
import { createReviewMailer } from '../../apps/oauth-worker/src/review-mailer.js';
import { createWorker, type Worker } from '../../apps/oauth-worker/src/worker.js';
import { buildApp } from '../../apps/scheduling-gateway/src/app.js';
import { createWorker as createSchedulingWorker } from '../../apps/scheduling-worker/src/worker.js';
import { createFailureLimiter, type FailureLimits } from '../../apps/scheduling-gateway/src/failure-limiter.js';
import { buildApp as buildWebApp } from '../../apps/scheduling-web/src/app.js';
import { createRedisSessionStore } from '../../apps/scheduling-web/src/session.js';
import { TEST_OAUTH_SECRETS, TEST_SECRETS } from './secrets.js';

export interface OAuthStack {
  gateway: HttpApp;
  store: OAuthStore;
  /** The scheduling model (teams, event types, schedules, bookings), written by a scheduling worker. */
  scheduling: SchedulingStore;
  users: UserDirectory;
  mongo: MongoConnection;
  redis: Redis;
  kafka: KafkaClient;
  publisher: Publisher;
  commands: CommandBus;
  worker: Worker;
  accessTokens: AccessTokens;
  credentials: OAuthCredentials;
  revocations: GrantRevocations;
  name: string;
  issuer: string;
  /** A user of the scheduling service (password "correct horse battery"). */
  newUser(role?: 'user' | 'admin'): Promise<SchedulingUserDoc>;
  /** Sends one OAuth command as the web app does and returns the worker's reply. */
  send(type: keyof typeof OAuthCommandTypes, value: Record<string, unknown>, key?: string): Promise<unknown>;
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

/**
 * oauth-worker and scheduling-gateway in one process on real Kafka, FerretDB, Redis and SMTP, isolated by a
 * unique database, topic prefix and Redis namespace.
 */
export async function startOAuthStack(options: { failureLimits?: Partial<FailureLimits>; smtpUrl?: string } = {}): Promise<OAuthStack> {
  const infra = resolveInfra();
  const name = uniqueName('oa');
  const issuer = 'http://127.0.0.1:3001';
  const logger = createLogger({ name, level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const kafka = createKafka({ brokers: infra.kafkaBrokers.split(','), clientId: name, logger, topicPrefix: `${name}.` });
  const mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  const redis = createRedis(infra.redisUrl, { name });
  const sealer = createSealer(TEST_SECRETS.SECRETS_SEALING_KEY);
  const store = createOAuthStore(mongo);
  await store.ensureIndexes();
  const users = createUserDirectory(mongo);
  await users.ensureIndexes();
  const scheduling = createSchedulingStore(mongo);
  await scheduling.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer });
  const revocations = createGrantRevocations(redis, { namespace: name });
  await revocations.start();

  await ensureTopics(kafka, [OAUTH_TOPICS.commands, OAUTH_TOPICS.events, SCHEDULING_TOPICS.commands]);
  const publisher = createPublisher(kafka, { source: '/test-scheduling' });
  await publisher.connect();
  const commands = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(infra.redisUrl, { name: `${name}-replies`, publisher: redis }),
    replicaId: name,
    defaultTimeoutMs: 20_000,
    component: 'scheduling-gateway',
  });
  await commands.start();

  const mailer = createReviewMailer(
    mongo,
    {
      smtpUrl: options.smtpUrl ?? infra.smtpUrl,
      from: 'Scheduling <no-reply@scheduling.localhost>',
      settingsUrl: 'http://127.0.0.1:3000/settings/developer/oauth',
      timeoutMs: 5000,
    },
    logger,
  );
  const worker = createWorker({
    kafka,
    store,
    writer: createOAuthWriter(mongo),
    results,
    replies: createRedisReplyTransport(infra.redisUrl, { name: `${name}-worker`, publisher: redis }),
    revocations: createGrantRevocations(redis, { namespace: name }),
    mailer,
    logger,
    refreshTokenTtlSeconds: 3600,
    outboxIntervalMs: 200,
  });
  await worker.start();
  const schedulingWorker = createSchedulingWorker({
    kafka,
    store: scheduling,
    writer: createSchedulingWriter(mongo),
    users,
    results: createMongoCommandResultStore(mongo, { sealer, collection: 'sched_command_results' }),
    replies: createRedisReplyTransport(infra.redisUrl, { name: `${name}-scheduling-worker`, publisher: redis }),
    logger,
    webUrl: 'http://127.0.0.1:3000',
    inviteTtlSeconds: 3600,
    outboxIntervalMs: 200,
  });
  await schedulingWorker.start();

  const accessTokens = createAccessTokens({ keys: [TEST_OAUTH_SECRETS.OAUTH_ACCESS_TOKEN_KEYS] });
  const credentials = createOAuthCredentials(TEST_OAUTH_SECRETS.OAUTH_SECRET_PEPPER);
  const gateway = await buildApp({
    logger,
    store,
    scheduling,
    users,
    commands,
    accessTokens,
    credentials,
    bearer: createBearerCheck({ accessTokens, revocations }),
    failures: createFailureLimiter(redis, { perIp: 1000, perClient: 1000, windowSeconds: 60, ...options.failureLimits }, name),
    issuer,
    webUrl: 'http://127.0.0.1:3000',
    commandTimeoutMs: 20_000,
    readiness: [],
  });
  await gateway.ready();
  await worker.ready();
  await schedulingWorker.ready();

  return {
    gateway,
    store,
    scheduling,
    users,
    mongo,
    redis,
    kafka,
    publisher,
    commands,
    worker,
    accessTokens,
    credentials,
    revocations,
    name,
    issuer,
    newUser: (role = 'user') => users.create({ email: `${generateId('u').toLowerCase()}@example.com`, name: 'Test User', password: TEST_PASSWORD, role }),
    send: (type, value, key) =>
      commands.send({
        topic: OAUTH_TOPICS.commands,
        key: key ?? String(value['client_id'] ?? 'x'),
        type: OAuthCommandTypes[type],
        value: value as never,
        commandId: generateId('cmd'),
      }),
    async close() {
      await gateway.close();
      await worker.stop();
      await schedulingWorker.stop();
      await commands.stop();
      await revocations.stop();
      await publisher.disconnect();
      await mongo.dropDatabase().catch(() => undefined);
      await mongo.close();
      redis.disconnect();
    },
  };
}

export const WEB_URL = 'http://127.0.0.1:3000';

/** scheduling-web on the stack's worker and stores (pages driven with inject, as a browser would). */
export async function startOAuthWeb(stack: OAuthStack, options: { userReach?: (userId: string) => Promise<UserReach> } = {}): Promise<HttpApp> {
  const web = await buildWebApp({
    logger: createLogger({ name: `${stack.name}-web`, level: process.env['TEST_LOG_LEVEL'] ?? 'silent' }),
    readiness: [],
    sessionSecret: TEST_OAUTH_SECRETS.SESSION_SECRET,
    store: stack.store,
    users: stack.users,
    userReach: options.userReach ?? (async () => NO_REACH),
    teamInvites: { describe: (token) => describeInvite(stack.scheduling, token) },
    commands: stack.commands,
    credentials: stack.credentials,
    sessions: createRedisSessionStore(stack.redis, { ttlSeconds: 3600, keyPrefix: `${stack.name}:web:session:` }),
    loginFailures: createLoginLimiter(stack.redis, { windowSeconds: 60, namespace: `${stack.name}:web:login`, message: 'Too many failed logins.' }),
    loginLimits: { perIp: 1000, perEmail: 1000 },
    publicUrl: WEB_URL,
    issuer: stack.issuer,
    codeTtlSeconds: 120,
    commandTimeoutMs: 20_000,
  });
  await web.ready();
  return web;
}
