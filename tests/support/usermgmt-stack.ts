import { createAccounts, type Accounts } from '@platform/accounts';
import type { RequestDelivery } from '@platform/contracts';
import type { HttpApp } from '@platform/http';
import type { MongoConnection } from '@platform/mongo';
import { startService } from '@platform/runtime/start';
import { testLogger } from './test-logger.js';
import { freePort, isolatedAppEnv, uniqueName } from '@platform/testing';
import { createUsermgmtStore, type UsermgmtStore } from '@platform/usermgmt';
import { createDeliveryStore, type DeliveryStore } from '@platform/webhooks';
// The apps are composed in-process from the same builders their main.ts runs (service.ts), with their own
// configuration read from an isolated environment.
import { config as gatewayConfig } from '../../apps/usermgmt-gateway/src/config.js';
import { build as buildGateway } from '../../apps/usermgmt-gateway/src/service.js';
import { config as workerConfig } from '../../apps/usermgmt-worker/src/config.js';
import { build as buildWorker } from '../../apps/usermgmt-worker/src/service.js';
import { config as dispatcherConfig } from '../../apps/webhook-dispatcher/src/config.js';
import { build as buildDispatcher } from '../../apps/webhook-dispatcher/src/service.js';
import { watchDeliveryRequests } from './delivery-requests.js';
import { TEST_SECRETS } from './secrets.js';

export interface UsermgmtStack {
  app: HttpApp;
  /** The gateway's own listener (plain HTTP), for clients outside the process. */
  url: string;
  accounts: Accounts;
  store: UsermgmtStore;
  deliveries: DeliveryStore;
  mongo: MongoConnection;
  newKey(): Promise<{ key: string; environmentId: string }>;
  /**
   * Every delivery request the worker publishes on webhooks.deliveries (read from the topic's start by a group
   * of its own), as the dispatcher receives it.
   */
  watchDeliveryRequests(): Promise<{ requests: RequestDelivery[]; stop(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * The user-management gateway, worker and webhook dispatcher in one process, each started by the runtime
 * from its own service builder, on real Kafka, FerretDB and Redis, isolated by a unique database and topic
 * prefix.
 */
export async function startUsermgmtStack(
  options: {
    retryScale?: number;
    commandTimeoutMs?: number;
    disableAfterMs?: number;
    /** Settings over the defaults below (a REDIS_URL through a proxy the test can cut). */
    extraEnv?: Record<string, string>;
  } = {},
): Promise<UsermgmtStack> {
  const name = uniqueName('um');
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    PORT: String(await freePort()),
    COMMAND_TIMEOUT_MS: String(options.commandTimeoutMs ?? 20_000),
    BODY_LIMIT_BYTES: String(64 * 1024),
    OUTBOX_INTERVAL_MS: '200',
    EGRESS_ALLOW: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_CONCURRENCY: '16',
    WEBHOOK_PER_TARGET_CONCURRENCY: '2',
    WEBHOOK_RETRY_SCALE: String(options.retryScale ?? 0.001),
    WEBHOOK_POLL_INTERVAL_MS: '50',
    ...(options.disableAfterMs ? { WEBHOOK_DISABLE_AFTER_MS: String(options.disableAfterMs) } : {}),
    ...options.extraEnv,
  });
  const logger = testLogger(name);
  const worker = await startService('usermgmt-worker', buildWorker, { settings: workerConfig.read(env), logger });
  const dispatcher = await startService('webhook-dispatcher', buildDispatcher, {
    settings: dispatcherConfig.read(env),
    logger,
  });
  const gateway = await startService('usermgmt-gateway', buildGateway, { settings: gatewayConfig.read(env), logger });
  // The runtime starts consumers without waiting for their groups; a test's first command should not.
  await Promise.all([worker.service.ready?.(), dispatcher.service.ready?.()]);
  const mongo = await gateway.context.mongo();
  const accounts = createAccounts({
    connection: mongo,
    redis: gateway.context.redis(),
    pepper: TEST_SECRETS.API_KEY_PEPPER,
  });
  await accounts.ensureIndexes();
  const watches: Array<{ stop(): Promise<void> }> = [];

  return {
    app: gateway.service.http.app,
    url: gateway.url!,
    accounts,
    store: createUsermgmtStore(mongo),
    deliveries: createDeliveryStore(mongo),
    mongo,
    async newKey() {
      const environment = await accounts.createEnvironment('usermgmt', 'test');
      const { key } = await accounts.createKey(environment._id);
      return { key, environmentId: environment._id };
    },
    async watchDeliveryRequests() {
      const watch = await watchDeliveryRequests(worker.context.kafka());
      watches.push(watch);
      return watch;
    },
    async close() {
      await Promise.all(watches.map((w) => w.stop()));
      await dispatcher.stop();
      await worker.stop();
      await mongo.dropDatabase().catch(() => undefined);
      await gateway.stop();
    },
  };
}
