export { createRedis, pingRedis } from './client.js';
export type { Redis, RedisLog } from './client.js';
export { createRedisReplyTransport } from './reply-transport.js';
export { createFailureLimiter } from './failure-limiter.js';
export type { FailureLimiter, FailureCounter } from './failure-limiter.js';
export { createLeaseQueue, nextSequence } from './lease-queue.js';
export type { LeaseQueue, LeaseQueueOptions, QueuedItem, Claim } from './lease-queue.js';
export { redisStamps, stampedRecords } from './stamps.js';
export type { Stamps, StampedRecordsOptions } from './stamps.js';
