export { createRedis, pingRedis } from './client.js';
export type { Redis } from './client.js';
export { createRedisReplyTransport } from './reply-transport.js';
