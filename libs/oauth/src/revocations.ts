import type { Redis } from '@platform/redis';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';

/**
 * Access tokens are self-contained (verified without I/O), so revoking a grant must reach every verifier:
 * the worker adds the grant to a Redis sorted set (scored by when its last access token expires) and
 * publishes it; each verifier keeps the set in memory, applies published revocations at once and reloads
 * the whole set periodically, which covers messages missed while disconnected. A lookup is a Map read.
 */
export function createGrantRevocations(
  redis: Redis,
  options: { reloadMs?: number; now?: () => number; namespace?: string } = {},
) {
  const KEY = `${options.namespace ?? 'oauth'}:revoked-grants`;
  const CHANNEL = KEY;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const revoked = new Map<string, number>();
  let subscriber: Redis | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function reload() {
    const t = now();
    const entries = await redis.zrangebyscore(KEY, t, '+inf', 'WITHSCORES');
    const fresh = new Map<string, number>();
    for (let i = 0; i < entries.length; i += 2) fresh.set(entries[i]!, Number(entries[i + 1]));
    // Keep anything published since the read started.
    for (const [id, until] of revoked) if (until > t && !fresh.has(id)) fresh.set(id, until);
    revoked.clear();
    for (const [id, until] of fresh) revoked.set(id, until);
  }

  return {
    /** Revokes every access token of the grant (idempotent). Refresh tokens are refused by the store itself. */
    async revoke(grantId: string): Promise<void> {
      const until = now() + ACCESS_TOKEN_TTL_SECONDS + 60;
      revoked.set(grantId, until);
      await redis
        .multi()
        .zadd(KEY, until, grantId)
        .zremrangebyscore(KEY, '-inf', now())
        .publish(CHANNEL, `${grantId} ${until}`)
        .exec();
    },

    isRevoked(grantId: string): boolean {
      const until = revoked.get(grantId);
      return until !== undefined && until > now();
    },

    /** Loads the current set and follows changes (verifiers only; the worker just calls revoke). */
    async start(): Promise<void> {
      subscriber = redis.duplicate({ connectionName: 'oauth-revocations' });
      subscriber.on('message', (_channel: string, message: string) => {
        const [id, until] = message.split(' ');
        if (id && until) revoked.set(id, Number(until));
      });
      subscriber.on('ready', () => void reload().catch(() => undefined));
      await subscriber.subscribe(CHANNEL);
      await reload();
      timer = setInterval(() => void reload().catch(() => undefined), options.reloadMs ?? 5000);
      timer.unref();
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      subscriber?.disconnect();
    },
  };
}

export type GrantRevocations = ReturnType<typeof createGrantRevocations>;
