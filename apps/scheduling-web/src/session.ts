import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from '@platform/redis';

export interface Session {
  userId: string;
  /** The per-session token every logged-in form carries as `_csrf`. */
  csrf: string;
}

export interface SessionStore {
  /** A new session under a new random id (login always rotates the id: no session fixation). */
  create(userId: string): Promise<{ sid: string; session: Session }>;
  /** The session, its lifetime renewed (sliding expiry), or null. */
  load(sid: string): Promise<Session | null>;
  destroy(sid: string): Promise<void>;
}

export function newRandomToken(): string {
  return randomBytes(32).toString('base64url');
}

function isSession(value: unknown): value is Session {
  const v = value as Partial<Session> | null;
  return typeof v === 'object' && v !== null && typeof v.userId === 'string' && typeof v.csrf === 'string';
}

/**
 * Sessions in Redis under the SHA-256 of their id, so a dump of Redis holds no usable cookie values.
 */
export function createRedisSessionStore(
  redis: Redis,
  options: { ttlSeconds: number; keyPrefix?: string },
): SessionStore {
  const prefix = options.keyPrefix ?? 'web:session:';
  const key = (sid: string) => `${prefix}${createHash('sha256').update(sid).digest('hex')}`;
  return {
    async create(userId) {
      const sid = newRandomToken();
      const session: Session = { userId, csrf: newRandomToken() };
      await redis.set(key(sid), JSON.stringify(session), 'EX', options.ttlSeconds);
      return { sid, session };
    },
    async load(sid) {
      if (sid.length === 0 || sid.length > 128) return null;
      const results = await redis.multi().get(key(sid)).expire(key(sid), options.ttlSeconds).exec();
      const stored = results?.[0]?.[1];
      if (typeof stored !== 'string') return null;
      try {
        const session: unknown = JSON.parse(stored);
        return isSession(session) ? session : null;
      } catch {
        return null;
      }
    },
    async destroy(sid) {
      await redis.del(key(sid));
    },
  };
}
