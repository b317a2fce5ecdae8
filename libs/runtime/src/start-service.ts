import { startHealthServer, type HttpApp, type ReadinessCheck } from '@platform/http';
import {
  createCommandBus,
  createBulkPublisher,
  createKafka,
  type CommandBus,
  type KafkaClient,
  type Publisher,
} from '@platform/kafka';
import { connectMongo, pingMongo, startExpirySweeper, type MongoConnection } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, pingRedis, type Redis } from '@platform/redis';
import { createLogger, type Logger, type MetricsHandler } from '@platform/telemetry';
import type { BuildService, RuntimeSettings, Service, ServiceContext } from './service.js';

export interface StartOptions<S extends RuntimeSettings> {
  settings: S;
  logger?: Logger;
  metrics?: MetricsHandler;
}

export interface RunningService<S extends RuntimeSettings, X extends Service> {
  service: X;
  context: ServiceContext<S>;
  /** The HTTP listener's address (`http://host:port`), when the service has one. */
  url: string | undefined;
  /** Ordered, draining shutdown (see Service); safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Builds and starts one service in this process. runService does this after telemetry has started; tests and
 * benchmarks call it directly to compose several services in one process.
 */
export async function startService<S extends RuntimeSettings, X extends Service>(
  name: string,
  build: BuildService<S, X>,
  options: StartOptions<S>,
): Promise<RunningService<S, X>> {
  const { settings } = options;
  const logger = options.logger ?? createLogger({ name, level: settings.logLevel });
  const readiness: ReadinessCheck[] = [];
  const closers: Array<{ name: string; close: () => Promise<void> | void }> = [];
  const sweepers: Array<{ stop(): void }> = [];
  let kafka: KafkaClient | undefined;
  let mongo: Promise<MongoConnection> | undefined;
  let redis: Redis | undefined;
  let publisher: Publisher | undefined;
  let commands: CommandBus | undefined;

  const context: ServiceContext<S> = {
    name,
    settings,
    logger,
    metrics: options.metrics,
    readiness,
    kafka() {
      kafka ??= createKafka({
        brokers: settings.kafka.brokers,
        clientId: name,
        logger,
        topicPrefix: settings.kafka.topicPrefix,
        schemaRegistry: settings.kafka.schemaRegistry,
      });
      return kafka;
    },
    mongo() {
      if (!mongo) {
        mongo = connectMongo({ url: settings.mongo.url, dbName: settings.mongo.db, appName: name });
        readiness.push({ name: 'mongo', check: async () => pingMongo(await mongo!) });
      }
      return mongo;
    },
    redis() {
      if (!redis) {
        if (!settings.redisUrl) throw new Error(`${name} has no Redis URL in its settings`);
        const client = createRedis(settings.redisUrl, { name, log: logger });
        readiness.push({ name: 'redis', check: () => pingRedis(client) });
        redis = client;
      }
      return redis;
    },
    publisher() {
      publisher ??= createBulkPublisher(context.kafka(), { source: `/${name}` });
      return publisher;
    },
    commands({ replicaId, timeoutMs }) {
      if (!commands) {
        const redis = context.redis(); // throws, naming the service, when it has no Redis URL
        commands = createCommandBus({
          publisher: context.publisher(),
          transport: createRedisReplyTransport(settings.redisUrl!, {
            name: `${name}-replies`,
            publisher: redis,
            log: logger,
          }),
          replicaId,
          defaultTimeoutMs: timeoutMs,
          component: name,
        });
      }
      return commands;
    },
    sweep(collections, sweepOptions = {}) {
      sweepers.push(
        startExpirySweeper(collections, {
          ...sweepOptions,
          onError: (error) => logger.warn({ err: error }, 'expiry sweep failed'),
        }),
      );
    },
    onClose(resource, close) {
      closers.push({ name: resource, close });
    },
  };

  let service: X | undefined;
  let health: HttpApp | undefined;
  let stopping: Promise<void> | undefined;
  let draining = false;

  async function step(what: string, work: () => Promise<unknown> | unknown) {
    try {
      await work();
    } catch (error) {
      logger.error({ err: error, step: what }, 'shutdown step failed');
    }
  }

  async function shutdown() {
    const http = service?.http;
    if (http) {
      // Stop accepting and drain in-flight requests while long-lived streams are told to go; answers sent
      // from now on close their keep-alive connection, so that the server can close once they are done.
      draining = true;
      const closed = http.app.close();
      await step('close streams', () => service?.closeStreams?.());
      await step('drain http', () => closed);
    } else {
      await step('close streams', () => service?.closeStreams?.());
    }
    await step('stop service', () => service?.stop?.());
    await step('stop command bus', () => commands?.stop());
    await step('disconnect publisher', () => publisher?.disconnect());
    for (const sweeper of sweepers) sweeper.stop();
    await step('close probe server', () => health?.close());
    for (const closer of closers.reverse()) await step(`close ${closer.name}`, closer.close);
    if (mongo) await step('close mongo', async () => (await mongo!).close());
    redis?.disconnect();
  }

  try {
    service = await build(context);
    await publisher?.connect();
    await commands?.start();
    await service.start?.();
    if (service.http) {
      service.http.app.addHook('onSend', (_request, reply, payload, done) => {
        if (draining) reply.header('connection', 'close');
        done(null, payload);
      });
      await service.http.app.listen({ port: service.http.port, host: service.http.host });
    } else if (settings.health) {
      health = await startHealthServer({
        name,
        logger,
        ...settings.health,
        readiness,
        ...(options.metrics ? { metrics: options.metrics } : {}),
      });
    }
  } catch (error) {
    await shutdown();
    throw error;
  }

  const address = service.http?.app.server.address();
  return {
    service,
    context,
    url:
      address && typeof address === 'object'
        ? `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
        : undefined,
    stop() {
      stopping ??= shutdown();
      return stopping;
    },
  };
}
