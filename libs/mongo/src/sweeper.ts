/** Anything that can delete by filter: a driver or a mongoose collection. */
export interface SweepableCollection {
  deleteMany(filter: Record<string, unknown>): Promise<unknown>;
}

/** FerretDB 1.x has no TTL indexes: documents with a past `expires_at` are deleted on a timer instead. */
export function startExpirySweeper(
  collections: SweepableCollection[],
  options: { intervalMs?: number; onError?: (e: unknown) => void } = {},
) {
  const timer = setInterval(() => {
    const now = new Date();
    for (const collection of collections) {
      collection.deleteMany({ expires_at: { $lt: now } }).catch((e: unknown) => options.onError?.(e));
    }
  }, options.intervalMs ?? 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
