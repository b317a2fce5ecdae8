import { Redis } from 'ioredis';

export type { Redis };

export function createRedis(url: string, options: { name: string; lazy?: boolean }): Redis {
  return new Redis(url, {
    connectionName: options.name,
    lazyConnect: options.lazy ?? false,
    connectTimeout: 5000,
    commandTimeout: 5000,
    maxRetriesPerRequest: 3,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
}

export async function pingRedis(redis: Redis): Promise<void> {
  const answer = await redis.ping();
  if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
}
