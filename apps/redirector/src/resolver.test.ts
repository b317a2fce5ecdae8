import type { LinkDoc, LinksStore } from '@platform/links';
import { describe, expect, it } from 'vitest';
import { createResolver } from './resolver.js';

function storeWith(docs: Record<string, Partial<LinkDoc>>, options: { gate?: () => Promise<void> } = {}) {
  let reads = 0;
  let queries = 0;
  const linkOf = (id: string) => {
    const doc = docs[id];
    return doc
      ? ({
          _id: id,
          organization_id: 'o',
          group_guid: 'g',
          archived: false,
          deleted_at: null,
          expiration_at: null,
          redirect_status: 301,
          long_url: 'https://example.com/',
          ...doc,
        } as LinkDoc)
      : null;
  };
  const store = {
    async getRedirectTargets(ids: readonly string[]) {
      reads += ids.length;
      queries++;
      await options.gate?.();
      return ids.map(linkOf).filter((doc): doc is LinkDoc => doc !== null);
    },
  } as unknown as LinksStore;
  return { store, reads: () => reads, queries: () => queries };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

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
    let now = Date.now();
    const { store } = storeWith({
      'sho.rt/archived': { archived: true },
      'sho.rt/deleted': { deleted_at: new Date() },
      'sho.rt/expired': { expiration_at: new Date(now - 1) },
      'sho.rt/later': { expiration_at: new Date(now + 60_000), redirect_status: 302 },
    });
    const resolver = createResolver(store, { maxEntries: 10, ttlMs: 60_000, missTtlMs: 1000, clock: () => now });
    for (const id of ['sho.rt/none', 'sho.rt/archived', 'sho.rt/deleted', 'sho.rt/expired'])
      expect(await resolver.resolve(id)).toBeNull();
    expect(await resolver.resolve('sho.rt/later')).toMatchObject({ status: 302 });
    now += 120_000;
    expect(await resolver.resolve('sho.rt/later')).toBeNull();
  });

  it('keeps at most maxEntries links', async () => {
    const { store } = storeWith({});
    const resolver = createResolver(store, { maxEntries: 3, ttlMs: 60_000, missTtlMs: 1000 });
    for (let i = 0; i < 10; i++) await resolver.resolve(`sho.rt/${i}`);
    expect(resolver.size).toBe(3);
  });

  it('evicts the links used longest ago first', async () => {
    const { store, reads } = storeWith({});
    const resolver = createResolver(store, { maxEntries: 4, ttlMs: 60_000, missTtlMs: 60_000 });
    for (const id of ['a', 'b', 'c', 'd']) await resolver.resolve(`sho.rt/${id}`);
    expect(resolver.cached('sho.rt/a')).toBeNull();
    await resolver.resolve('sho.rt/e');
    expect(resolver.cached('sho.rt/b')).toBeUndefined();
    for (const id of ['a', 'c', 'd', 'e']) expect(resolver.cached(`sho.rt/${id}`), id).toBeNull();
    expect(reads()).toBe(5);
  });

  it('reads the links in use again in the background near the end of their life, in one query, answering from memory meanwhile', async () => {
    const docs: Record<string, Partial<LinkDoc>> = {
      'sho.rt/a': { long_url: 'https://example.com/old' },
      'sho.rt/b': {},
      'sho.rt/c': {},
    };
    const { store, reads, queries } = storeWith(docs);
    let now = Date.now();
    const resolver = createResolver(store, {
      maxEntries: 10,
      ttlMs: 60_000,
      missTtlMs: 1000,
      random: () => 0,
      refreshDelayMs: 0,
      clock: () => now,
    });
    const start = now;
    for (const id of ['a', 'b', 'c']) await resolver.resolve(`sho.rt/${id}`);
    docs['sho.rt/a'] = { long_url: 'https://example.com/new' };
    delete docs['sho.rt/c'];
    // Before the last quarter of its life: memory only.
    now = start + 40_000;
    expect(resolver.cached('sho.rt/a')?.long_url).toBe('https://example.com/old');
    await settle();
    expect(reads()).toBe(3);
    // In it: still answered from memory, and each link due read once (not once per hit), all in one query.
    now = start + 50_000;
    for (const id of ['a', 'a', 'c']) expect(resolver.cached(`sho.rt/${id}`)).not.toBeUndefined();
    expect(resolver.cached('sho.rt/a')?.long_url).toBe('https://example.com/old');
    await settle();
    expect([reads(), queries(), resolver.refreshes]).toEqual([5, 4, 2]);
    expect(resolver.cached('sho.rt/a')?.long_url).toBe('https://example.com/new');
    // A link gone from the store is remembered as gone; b was not in use, so it was not read.
    expect(resolver.cached('sho.rt/c')).toBeNull();
  });

  it('does not keep a background read that an eviction overtook', async () => {
    let open: () => void = () => undefined;
    let gated = false;
    const gate = () => (gated ? new Promise<void>((resolve) => (open = resolve)) : Promise.resolve());
    const docs: Record<string, Partial<LinkDoc>> = { 'sho.rt/a': { long_url: 'https://example.com/old' } };
    const { store, reads } = storeWith(docs, { gate });
    let now = Date.now();
    const resolver = createResolver(store, {
      maxEntries: 10,
      ttlMs: 60_000,
      missTtlMs: 1000,
      random: () => 0,
      refreshDelayMs: 0,
      clock: () => now,
    });
    await resolver.resolve('sho.rt/a');
    gated = true;
    now += 50_000;
    resolver.cached('sho.rt/a');
    await settle();
    // The refresh is on its way with the old link when the change's eviction comes.
    resolver.evict('sho.rt/a');
    docs['sho.rt/a'] = { long_url: 'https://example.com/new' };
    open();
    await settle();
    expect(resolver.cached('sho.rt/a')).toBeUndefined();
    gated = false;
    expect((await resolver.resolve('sho.rt/a'))?.long_url).toBe('https://example.com/new');
    expect(reads()).toBe(3);
  });

  it('does not keep a read that an eviction overtook (it may predate the change)', async () => {
    let open: () => void = () => undefined;
    const gate = () => new Promise<void>((resolve) => (open = resolve));
    const { store, reads } = storeWith({ 'sho.rt/a': {} }, { gate });
    const resolver = createResolver(store, { maxEntries: 10, ttlMs: 60_000, missTtlMs: 1000 });
    const first = resolver.resolve('sho.rt/a');
    await new Promise((resolve) => setImmediate(resolve));
    resolver.evict('sho.rt/a');
    open();
    expect(await first).not.toBeNull();
    expect(resolver.cached('sho.rt/a')).toBeUndefined();
    const second = resolver.resolve('sho.rt/a');
    await new Promise((resolve) => setImmediate(resolve));
    open();
    await second;
    expect(reads()).toBe(2);
    expect(resolver.cached('sho.rt/a')).not.toBeUndefined();
  });

  it('spreads the expiry of links read together', async () => {
    const { store } = storeWith({ 'sho.rt/a': {}, 'sho.rt/b': {} });
    // Each link draws its life, then its refresh point.
    const draws = [0, 0, 1, 0];
    let now = Date.now();
    const resolver = createResolver(store, {
      maxEntries: 10,
      ttlMs: 10_000,
      missTtlMs: 1000,
      random: () => draws.shift() ?? 0,
      clock: () => now,
    });
    const start = now;
    await resolver.resolve('sho.rt/a');
    await resolver.resolve('sho.rt/b');
    // b's life is 10 % shorter: gone at 9.5 s, while a lives on until 10 s.
    now = start + 9_500;
    expect(resolver.cached('sho.rt/b')).toBeUndefined();
    expect(resolver.cached('sho.rt/a')).not.toBeUndefined();
  });

  it('spreads the refreshes of links read together over a fifth of their life', async () => {
    const { store, queries } = storeWith({ 'sho.rt/a': {}, 'sho.rt/b': {} });
    // a refreshes from 75 % of its life, b from 55 %.
    const draws = [0, 0, 0, 1];
    let now = Date.now();
    const resolver = createResolver(store, {
      maxEntries: 10,
      ttlMs: 10_000,
      missTtlMs: 1000,
      random: () => draws.shift() ?? 0,
      refreshDelayMs: 0,
      clock: () => now,
    });
    const start = now;
    await resolver.resolve('sho.rt/a');
    await resolver.resolve('sho.rt/b');
    expect(queries()).toBe(2);
    now = start + 6_000;
    for (const id of ['a', 'b']) resolver.cached(`sho.rt/${id}`);
    await settle();
    expect([queries(), resolver.refreshes]).toEqual([3, 1]);
    now = start + 7_600;
    resolver.cached('sho.rt/a');
    await settle();
    expect([queries(), resolver.refreshes]).toEqual([4, 2]);
  });
});
