import { createHash } from 'node:crypto';
import type { SessionStore } from '@fastify/session';
import type { Session } from 'fastify';

declare module 'fastify' {
  interface Session {
    /** Who logged in: set at login, on a new session id. */
    userId?: string;
  }
}

export type { SessionStore };

/** The Redis commands the store uses (ioredis' client has them). */
export interface SessionRedis {
  getex(key: string, expiry: 'EX', seconds: number): Promise<string | null>;
  set(key: string, value: string, expiry: 'EX', seconds: number): Promise<unknown>;
  del(key: string): Promise<number>;
}

const MAX_ID_LENGTH = 128;

/**
 * What was stored, as @fastify/session restores it. It has no `cookie` member: the cookie's options then come from
 * the app's configuration on every request, not from the day the session began.
 */
function restore(stored: string | null): Session | null {
  if (stored === null) return null;
  try {
    const data: unknown = JSON.parse(stored);
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Session) : null;
  } catch {
    return null;
  }
}

/**
 * @fastify/session's store in Redis. Each session lies under the SHA-256 of its id, so a dump of Redis holds no
 * usable cookie values; every read renews its lifetime (sliding expiry, one GETEX), and only a write from the
 * app (login, a session's first CSRF secret) stores it whole.
 */
export function createRedisSessionStore(
  redis: SessionRedis,
  options: { ttlSeconds: number; keyPrefix?: string },
): SessionStore {
  const prefix = options.keyPrefix ?? 'web:session:';
  const key = (sessionId: string) => `${prefix}${createHash('sha256').update(sessionId).digest('hex')}`;
  return {
    get(sessionId, callback) {
      if (sessionId.length === 0 || sessionId.length > MAX_ID_LENGTH) return callback(null, null);
      redis.getex(key(sessionId), 'EX', options.ttlSeconds).then((stored) => callback(null, restore(stored)), callback);
    },
    set(sessionId, session, callback) {
      const { cookie: _cookie, ...data } = session;
      redis.set(key(sessionId), JSON.stringify(data), 'EX', options.ttlSeconds).then(() => callback(), callback);
    },
    destroy(sessionId, callback) {
      redis.del(key(sessionId)).then(() => callback(), callback);
    },
  };
}
