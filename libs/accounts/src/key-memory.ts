import type { Redis } from '@platform/redis';

/** Where `revokeKey` announces the hash of every key it revokes, to the processes that keep keys in memory. */
export const REVOKED_KEYS_CHANNEL = 'apikey:revoked';

/** The identities of keys verified lately, kept in this process (the hot path then makes no round trip). */
export interface KeyMemory<T> {
  get(hash: string): T | undefined;
  /** Taken before a key is read from Redis or the store; `remember` keeps nothing if a revocation came since. */
  epoch(): number;
  remember(hash: string, value: T, epoch: number): void;
  close(): Promise<void>;
}

/** Every key memory of this process, which a revocation made here reaches before its reply (not a message later). */
const memories = new Set<{ forget(hash: string): void }>();

/** Drops a revoked key from every memory of this process at once. */
export function forgetKeyInThisProcess(hash: string): void {
  for (const memory of memories) memory.forget(hash);
}

/**
 * Verified keys in memory, trusted only while this process listens to the revocation channel: every
 * revocation heard drops its key (and refuses what reads in flight would keep), and a lost subscription drops
 * them all until the next one is in place. A revocation made in this process reaches its memories before it
 * returns; one made elsewhere, with its message, a millisecond or so after its reply (a request that arrives
 * in between passes, as one could while the revocation was being written).
 */
export function subscribedKeyMemory<T>(
  redis: Redis,
  options: { name: string; ttlMs?: number; max?: number },
): KeyMemory<T> {
  const ttlMs = options.ttlMs ?? 60_000;
  const max = options.max ?? 10_000;
  const kept = new Map<string, { value: T; until: number }>();
  let epoch = 0;
  let listening = false;
  let closed = false;

  const subscriber = redis.duplicate({ connectionName: `${options.name}-revoked-keys` });
  const forgetAll = () => {
    listening = false;
    epoch++;
    kept.clear();
  };
  // Reported by the process's own client: this one only stops trusting what it kept.
  subscriber.on('error', () => undefined);
  subscriber.on('close', forgetAll);
  subscriber.on('ready', () => {
    subscriber.subscribe(REVOKED_KEYS_CHANNEL).then(
      () => {
        if (!closed && subscriber.status === 'ready') listening = true;
      },
      () => undefined,
    );
  });
  const forget = (hash: string) => {
    epoch++;
    kept.delete(hash);
  };
  subscriber.on('message', (channel: string, hash: string) => {
    if (channel === REVOKED_KEYS_CHANNEL) forget(hash);
  });
  const handle = { forget };
  memories.add(handle);

  return {
    get(hash) {
      if (!listening) return undefined;
      const hit = kept.get(hash);
      if (!hit) return undefined;
      if (hit.until > Date.now()) return hit.value;
      kept.delete(hash);
      return undefined;
    },
    epoch: () => epoch,
    remember(hash, value, since) {
      if (!listening || since !== epoch) return;
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(hash, { value, until: Date.now() + ttlMs });
    },
    async close() {
      closed = true;
      memories.delete(handle);
      forgetAll();
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}
