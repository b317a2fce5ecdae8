import type { Redis } from 'ioredis';
import { createRedis, type RedisLog } from './client.js';

/**
 * Command replies over Redis pub/sub: each gateway replica subscribes to its own channel, so a reply
 * goes to the one replica that waits for it. The publishing side reuses an ordinary connection.
 */
export function createRedisReplyTransport(url: string, options: { name: string; publisher?: Redis; log?: RedisLog }) {
  let subscriber: Redis | undefined;
  const publisher =
    options.publisher ??
    createRedis(url, { name: `${options.name}-pub`, ...(options.log ? { log: options.log } : {}) });
  const ownsPublisher = !options.publisher;
  return {
    async subscribe(channel: string, onMessage: (message: string) => void) {
      subscriber ??= createRedis(url, { name: `${options.name}-sub`, ...(options.log ? { log: options.log } : {}) });
      subscriber.on('message', (ch: string, message: string) => {
        if (ch === channel) onMessage(message);
      });
      await subscriber.subscribe(channel);
    },
    async publish(channel: string, message: string) {
      await publisher.publish(channel, message);
    },
    async close() {
      await subscriber?.quit().catch(() => undefined);
      if (ownsPublisher) await publisher.quit().catch(() => undefined);
    },
  };
}
