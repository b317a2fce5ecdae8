import { Redis } from 'ioredis';

export type { Redis };

/** Where a client reports losing Redis and finding it again (a pino logger fits). */
export interface RedisLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export function createRedis(url: string, options: { name: string; lazy?: boolean; log?: RedisLog }): Redis {
  const client = new Redis(url, {
    connectionName: options.name,
    lazyConnect: options.lazy ?? false,
    connectTimeout: 5000,
    commandTimeout: 5000,
    maxRetriesPerRequest: 3,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // ioredis emits an error on every reconnection attempt and prints it when nothing listens: an outage is
  // reported once, when it starts, and once more when Redis is back. Commands fail on their own (503).
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    options.log?.warn({ err: error, redis: options.name }, 'Redis unreachable; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    options.log?.info({ redis: options.name }, 'Redis reachable again');
  });
  return client;
}

export async function pingRedis(redis: Redis): Promise<void> {
  const answer = await redis.ping();
  if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
}
