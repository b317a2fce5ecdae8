/**
 * Answers reused for `ttlMs` by key (at most `max` keys, the oldest dropped first), for reads that many
 * requests repeat and that rarely change. Concurrent misses of a key share one read; a missing value or a
 * failed read is not kept, so what appears is seen at once.
 */
export function recently<T>(options: {
  ttlMs: number;
  max: number;
}): (key: string, load: () => Promise<T | null>) => Promise<T | null> {
  const cache = new Map<string, { value: Promise<T | null>; until: number }>();
  return (key, load) => {
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    cache.delete(key);
    if (cache.size >= options.max) cache.delete(cache.keys().next().value!);
    // A thenable (a mongoose query) runs again at each then: one native promise settles it once for all.
    const value = Promise.resolve(load());
    cache.set(key, { value, until: Date.now() + options.ttlMs });
    const forget = () => {
      if (cache.get(key)?.value === value) cache.delete(key);
    };
    value.then((found) => found ?? forget(), forget);
    return value;
  };
}
