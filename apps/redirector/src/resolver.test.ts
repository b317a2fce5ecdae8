import type { LinkDoc, LinksStore } from '@platform/links';
import { describe, expect, it } from 'vitest';
import { createResolver } from './resolver.js';

function storeWith(docs: Record<string, Partial<LinkDoc>>) {
  let reads = 0;
  const store = {
    async getLink(id: string) {
      reads++;
      const doc = docs[id];
      return doc ? ({ _id: id, organization_id: 'o', group_guid: 'g', archived: false, deleted_at: null, expiration_at: null, redirect_status: 301, long_url: 'https://example.com/', ...doc } as LinkDoc) : null;
    },
  } as unknown as LinksStore;
  return { store, reads: () => reads };
}

describe('the link resolver', () => {
  it('serves from memory after the first read, until the link is evicted', async () => {
    const { store, reads } = storeWith({ 'sho.rt/a': { long_url: 'https://example.com/a' } });
    const resolver = createResolver(store, { maxEntries: 10, ttlMs: 60_000, missTtlMs: 1000 });
    expect((await resolver.resolve('sho.rt/a'))?.long_url).toBe('https://example.com/a');
    await resolver.resolve('sho.rt/a');
    expect(reads()).toBe(1);
    resolver.evict('sho.rt/a');
    await resolver.resolve('sho.rt/a');
    expect(reads()).toBe(2);
  });

  it('answers nothing for unknown, archived, deleted and expired links', async () => {
    const now = Date.now();
    const { store } = storeWith({
      'sho.rt/archived': { archived: true },
      'sho.rt/deleted': { deleted_at: new Date() },
      'sho.rt/expired': { expiration_at: new Date(now - 1) },
      'sho.rt/later': { expiration_at: new Date(now + 60_000), redirect_status: 302 },
    });
    const resolver = createResolver(store, { maxEntries: 10, ttlMs: 60_000, missTtlMs: 1000 });
    for (const id of ['sho.rt/none', 'sho.rt/archived', 'sho.rt/deleted', 'sho.rt/expired']) expect(await resolver.resolve(id, now)).toBeNull();
    expect(await resolver.resolve('sho.rt/later', now)).toMatchObject({ status: 302 });
    expect(await resolver.resolve('sho.rt/later', now + 120_000)).toBeNull();
  });

  it('keeps at most maxEntries links', async () => {
    const { store } = storeWith({});
    const resolver = createResolver(store, { maxEntries: 3, ttlMs: 60_000, missTtlMs: 1000 });
    for (let i = 0; i < 10; i++) await resolver.resolve(`sho.rt/${i}`);
    expect(resolver.size).toBe(3);
  });

  it('evicts the links used longest ago first (by eras of half the cache in insertions)', async () => {
    const { store, reads } = storeWith({});
    const resolver = createResolver(store, { maxEntries: 4, ttlMs: 60_000, missTtlMs: 60_000 });
    for (const id of ['a', 'b', 'c', 'd']) await resolver.resolve(`sho.rt/${id}`);
    // a and b were inserted two eras ago; a is used now, so b is the oldest.
    expect(resolver.cached('sho.rt/a')).toBeNull();
    await resolver.resolve('sho.rt/e');
    expect(resolver.cached('sho.rt/b')).toBeUndefined();
    for (const id of ['a', 'c', 'd', 'e']) expect(resolver.cached(`sho.rt/${id}`), id).toBeNull();
    expect(reads()).toBe(5);
  });
});
