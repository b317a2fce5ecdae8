import {
  createAccounts,
  createMembers,
  type Accounts,
  type MemberRecord,
  type MemberRole,
  type Members,
} from '@platform/accounts';
import { createPublisher, type KafkaClient, type Publisher } from '@platform/kafka';
import type { MongoConnection } from '@platform/mongo';
import { startService } from '@platform/runtime/start';
import { testLogger } from './test-logger.js';
import { freePort, isolatedAppEnv, uniqueName } from '@platform/testing';
// The apps are composed in-process from the same builders their main.ts runs (service.ts), with their own
// configuration read from an isolated environment.
import { config as gatewayConfig } from '../../apps/notifications-gateway/src/config.js';
import { build as buildGateway } from '../../apps/notifications-gateway/src/service.js';
import { config as notifierConfig } from '../../apps/notifier/src/config.js';
import { build as buildNotifier } from '../../apps/notifier/src/service.js';
import { config as dispatcherConfig } from '../../apps/webhook-dispatcher/src/config.js';
import { build as buildDispatcher } from '../../apps/webhook-dispatcher/src/service.js';
import { TEST_SECRETS } from './secrets.js';

export const WEBHOOK_SECRET = 'whsec_notifications-test-secret-0123456789';

export interface NotificationsUser {
  user: MemberRecord;
  token: string;
}

export interface NotificationsStack {
  /** Two gateway replicas on one notifier: what one is sent, the other's watchers see. */
  urls: [string, string];
  accounts: Accounts;
  members: Members;
  mongo: MongoConnection;
  env: Record<string, string>;
  /** Publishes on the stack's topics as another service would (the events the notifier turns into notifications). */
  publisher: Publisher;
  /** The stack's Kafka client (its topic prefix), to read what the apps publish. */
  kafka: KafkaClient;
  /** A deployment with its owner; `addUser` adds more to it. */
  newDeployment(email?: string): Promise<{ deploymentId: string; owner: NotificationsUser }>;
  addUser(deploymentId: string, role: MemberRole, email?: string): Promise<NotificationsUser>;
  /** The user's open watch streams on each gateway replica (the barrier before sending to a watcher). */
  watchStreams(user: NotificationsUser): [number, number];
  close(): Promise<void>;
}

export interface NotificationsStackOptions {
  /** Where the webhook method POSTs; without it the deployment has smtp only. */
  webhookUrl?: string;
  maxFramesBehind?: number;
  /** More settings of the apps (NOTIFIER_WEBHOOK_RATE_LIMIT...). */
  env?: Record<string, string>;
}

/** The gateways' watch timing: a ping every `pingMs`, and a reader closed once a ping has gone unanswered `slowGraceMs`. */
export const WATCH_TIMING = { pingMs: 1000, slowGraceMs: 1000 } as const;

/**
 * notifier, webhook dispatcher and two notifications gateways in one process, on real Kafka, FerretDB, Redis and
 * SMTP, isolated by a unique database and topic prefix.
 */
export async function startNotificationsStack(options: NotificationsStackOptions = {}): Promise<NotificationsStack> {
  const name = uniqueName('nt');
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    NOTIFIER_METHODS: options.webhookUrl ? 'smtp,webhook' : 'smtp',
    ...(options.webhookUrl
      ? { NOTIFIER_WEBHOOK_URL: options.webhookUrl, NOTIFIER_WEBHOOK_SECRET: WEBHOOK_SECRET }
      : {}),
    NOTIFIER_SWEEP_MS: '200',
    NOTIFIER_RETRY_BASE_MS: '100',
    OUTBOX_INTERVAL_MS: '200',
    COMMAND_TIMEOUT_MS: '20000',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    EGRESS_ALLOW: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_POLL_INTERVAL_MS: '25',
    WATCH_MAX_FRAMES_BEHIND: String(options.maxFramesBehind ?? 256),
    WATCH_PING_MS: String(WATCH_TIMING.pingMs),
    WATCH_SLOW_GRACE_MS: String(WATCH_TIMING.slowGraceMs),
    ...options.env,
  });
  const logger = testLogger(name);
  const notifier = await startService('notifier', buildNotifier, { settings: notifierConfig.read(env), logger });
  const dispatcher = await startService('webhook-dispatcher', buildDispatcher, {
    settings: dispatcherConfig.read(env),
    logger,
  });
  const gateways: Array<{
    settings: ReturnType<typeof gatewayConfig.read>;
    started: Awaited<
      ReturnType<typeof startService<ReturnType<typeof gatewayConfig.read>, Awaited<ReturnType<typeof buildGateway>>>>
    >;
  }> = [];
  for (const replica of ['a', 'b']) {
    const settings = gatewayConfig.read({ ...env, PORT: String(await freePort()), REPLICA_ID: `${name}-${replica}` });
    gateways.push({
      settings,
      started: await startService('notifications-gateway', buildGateway, { settings, logger }),
    });
  }
  await Promise.all([
    notifier.service.ready?.(),
    dispatcher.service.ready?.(),
    ...gateways.map((g) => g.started.service.ready?.()),
  ]);
  const mongo = await notifier.context.mongo();
  const accounts = createAccounts({
    connection: mongo,
    redis: notifier.context.redis(),
    pepper: TEST_SECRETS.API_KEY_PEPPER,
  });
  const members = createMembers(mongo);
  await Promise.all([accounts.ensureIndexes(), members.ensureIndexes()]);
  const publisher = createPublisher(notifier.context.kafka(), { source: '/test' });
  await publisher.connect();

  async function addUser(deploymentId: string, role: MemberRole, email?: string): Promise<NotificationsUser> {
    const username = uniqueName(role)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 30);
    const user = await members.create(deploymentId, { username, role, email: email ?? `${username}@example.com` });
    const { key } = await accounts.createKey(deploymentId, { subject: user._id });
    return { user, token: key };
  }

  return {
    urls: gateways.map((g) => `http://127.0.0.1:${g.settings.http.port}`) as [string, string],
    accounts,
    members,
    mongo,
    env,
    publisher,
    kafka: notifier.context.kafka(),
    async newDeployment(email) {
      const deployment = await accounts.createEnvironment('notifications', name);
      return { deploymentId: deployment._id, owner: await addUser(deployment._id, 'owner', email) };
    },
    addUser,
    watchStreams: (user) =>
      gateways.map((g) => g.started.service.watchStreams(user.user.environment_id, user.user._id)) as [number, number],
    async close() {
      await publisher.disconnect();
      for (const g of gateways) await g.started.stop();
      await dispatcher.stop();
      await mongo.dropDatabase().catch(() => undefined);
      await notifier.stop();
    },
  };
}
