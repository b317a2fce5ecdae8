import { describe, expect, it } from 'vitest';
import type { Connection } from '@platform/mongo';
import { LATE_MS, createAnalyticsStore } from './read-store.js';

interface Find {
  from: string;
  to: string;
  projection: Record<string, number> | undefined;
}

/** A collection that answers every range with one document per `_id` bound and records what it was asked. */
function fakeConnection() {
  const finds: Find[] = [];
  const collection = {
    find(filter: { _id: { $gte: string; $lte: string } }, options: { projection?: Record<string, number> }) {
      finds.push({ from: filter._id.$gte, to: filter._id.$lte, projection: options.projection });
      return { toArray: async () => [{ _id: filter._id.$gte }] };
    },
  };
  return { finds, connection: { collection: () => collection } as unknown as Connection };
}

const scope = { kind: 'link', key: 'sho.rt/abc' } as const;
const month = (iso: string) => Date.parse(`${iso}-01T00:00:00Z`);
const id = (iso: string) => `l|sho.rt/abc|month|${iso}-01T00:00:00.000Z`;

describe('createAnalyticsStore', () => {
  it('reads a range with its fields when closed buckets are not reused', async () => {
    const { finds, connection } = fakeConnection();
    const store = createAnalyticsStore(connection);
    await store.buckets(scope, 'month', month('2024-01'), month('2024-12'), ['d']);
    expect(finds).toEqual([{ from: id('2024-01'), to: id('2024-12'), projection: { t: 1, d: 1 } }]);
  });

  it('shares a read already on its way', async () => {
    const { finds, connection } = fakeConnection();
    const store = createAnalyticsStore(connection);
    const [a, b] = await Promise.all([
      store.buckets(scope, 'month', null, month('2024-12'), ['d']),
      store.buckets(scope, 'month', null, month('2024-12'), ['d']),
    ]);
    expect(a).toBe(b);
    expect(finds).toHaveLength(1);
    expect(finds[0]!.from).toBe('l|sho.rt/abc|month|');
    await store.buckets(scope, 'month', null, month('2024-12'), ['d']);
    expect(finds).toHaveLength(2);
  });

  it('reuses closed buckets whole for their time to live and always reads the open ones', async () => {
    const { finds, connection } = fakeConnection();
    let now = Date.parse('2024-12-10T12:00:00Z');
    const store = createAnalyticsStore(connection, { closedTtlMs: 5000, now: () => now });
    await store.buckets(scope, 'month', month('2024-01'), month('2024-12'), ['d']);
    expect(finds).toEqual([
      { from: id('2024-01'), to: id('2024-11'), projection: undefined },
      { from: id('2024-12'), to: id('2024-12'), projection: { t: 1, d: 1 } },
    ]);
    now += 3999;
    await store.buckets(scope, 'month', month('2024-01'), month('2024-12'), ['n', 'f.clicks.country']);
    await store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['n']);
    expect(finds.slice(2)).toEqual([
      { from: id('2024-12'), to: id('2024-12'), projection: { t: 1, n: 1, 'f.clicks.country': 1 } },
      { from: id('2024-01'), to: id('2024-06'), projection: undefined },
    ]);
    now += 1001;
    await store.buckets(scope, 'month', month('2024-01'), month('2024-12'), ['d']);
    expect(finds.slice(4).map((f) => f.to)).toEqual([id('2024-11'), id('2024-12')]);
  });

  it('reads closed buckets again in the background in the last fifth of their time to live', async () => {
    const { finds, connection } = fakeConnection();
    let now = Date.parse('2024-12-10T12:00:00Z');
    const store = createAnalyticsStore(connection, { closedTtlMs: 5000, now: () => now });
    const closedReads = () => finds.filter((f) => f.projection === undefined).length;
    await store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['d']);
    now += 3999;
    await store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['d']);
    expect(closedReads()).toBe(1);
    now += 2;
    await store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['d']);
    await store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['d']);
    expect(closedReads()).toBe(2);
    now += 4000;
    await store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['d']);
    expect(closedReads()).toBe(2);
  });

  it('counts a bucket as open until it ended a while ago', async () => {
    const { finds, connection } = fakeConnection();
    const store = createAnalyticsStore(connection, { closedTtlMs: 5000, now: () => month('2024-12') + LATE_MS - 1 });
    await store.buckets(scope, 'month', month('2024-11'), month('2024-11'), ['d']);
    expect(finds).toEqual([{ from: id('2024-11'), to: id('2024-11'), projection: { t: 1, d: 1 } }]);
  });

  it('reads a failed closed range again', async () => {
    let fail = true;
    const finds: string[] = [];
    const collection = {
      find: (filter: { _id: { $gte: string } }) => ({
        toArray: async () => {
          finds.push(filter._id.$gte);
          if (fail) throw new Error('store down');
          return [];
        },
      }),
    };
    const store = createAnalyticsStore({ collection: () => collection } as unknown as Connection, {
      closedTtlMs: 5000,
      now: () => month('2024-12'),
    });
    await expect(store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['d'])).rejects.toThrow(
      'store down',
    );
    fail = false;
    await store.buckets(scope, 'month', month('2024-01'), month('2024-06'), ['d']);
    expect(finds).toEqual([id('2024-01'), id('2024-01')]);
  });
});
