import { configOrExit } from '@platform/config';
import { createEgressClient, createEgressGuard } from '@platform/egress';
import { startHealthServer } from '@platform/http';
import { createKafka } from '@platform/kafka';
import { connectMongo, pingMongo, startExpirySweeper } from '@platform/mongo';
import { createSealer } from '@platform/secrets';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { createDeliveryStore } from '@platform/webhooks';
import { config } from './config.js';
import { createDispatcher } from './dispatcher.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'webhook-dispatcher', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'webhook-dispatcher', logger, topicPrefix: cfg.kafka.topicPrefix });
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'webhook-dispatcher' });
  const store = createDeliveryStore(mongo);
  await store.ensureIndexes();
  const egress = createEgressClient(createEgressGuard({ allow: cfg.egressAllow }), { connections: cfg.delivery.concurrency });
  const dispatcher = createDispatcher({
    kafka,
    store,
    egress,
    sealer: createSealer(cfg.sealingKey),
    logger,
    ...cfg.delivery,
  });
  await dispatcher.start();
  const sweeper = startExpirySweeper(store.expiringCollections(), {
    intervalMs: 3600_000,
    onError: (error) => logger.warn({ err: error }, 'expiry sweep failed'),
  });
  const health = cfg.health
    ? await startHealthServer({ name: 'webhook-dispatcher', logger, ...cfg.health, metrics: telemetry.metricsHandler, readiness: [{ name: 'mongo', check: () => pingMongo(mongo) }] })
    : undefined;
  logger.info('webhook dispatcher started');

  onShutdown(
    logger,
    async () => {
      await dispatcher.stop();
      sweeper.stop();
      await egress.close();
      await health?.close();
      await mongo.close();
      await telemetry.shutdown();
    },
    cfg.shutdownTimeoutMs,
  );
}
