import { randomUUID } from 'node:crypto';
import { createCommandBus, createPublisher, type CommandBus } from '@platform/kafka';
import { createRedisReplyTransport, type Redis } from '@platform/redis';
import type { config } from './config.js';
import { cliKafka } from './kafka.js';

/** A command bus opened on first use (only the commands that write need Kafka), closed with the CLI. */
export function cliCommandBus(cfg: ReturnType<typeof config.get>, redis: Redis) {
  let bus: Promise<CommandBus> | undefined;
  let stop: (() => Promise<void>) | undefined;
  return {
    open(): Promise<CommandBus> {
      bus ??= (async () => {
        const kafka = cliKafka(cfg);
        const publisher = createPublisher(kafka, { source: '/cli' });
        await publisher.connect();
        const commands = createCommandBus({
          publisher,
          transport: createRedisReplyTransport(cfg.redisUrl, { name: 'cli-replies', publisher: redis }),
          replicaId: `cli-${randomUUID()}`,
          defaultTimeoutMs: 15_000,
          component: 'cli',
        });
        await commands.start();
        stop = async () => {
          await commands.stop();
          await publisher.disconnect();
        };
        return commands;
      })();
      return bus;
    },
    async close() {
      await stop?.();
    },
  };
}
