import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeaseQueue, createRedis, type Redis } from '@platform/redis';
import { resolveInfra, uniqueName } from '@platform/testing';

let redis: Redis;

beforeAll(() => {
  redis = createRedis(resolveInfra().redisUrl, { name: 'lease-queue-test' });
});

afterAll(() => redis.disconnect());

const queue = (perGroupLimit = 2) => createLeaseQueue(redis, { name: uniqueName('lq'), perGroupLimit });
const T0 = 1_800_000_000_000;

describe('the Redis lease queue', () => {
  it('hands out due items only, earliest first, each to one claimer', async () => {
    const q = queue(10);
    await q.schedule([
      { id: 'late', group: 'a', dueAt: T0 + 5000 },
      { id: 'second', group: 'a', dueAt: T0 + 2 },
      { id: 'first', group: 'a', dueAt: T0 + 1 },
    ]);
    expect((await q.claim(10, 1000, T0 + 10)).map((c) => c.id)).toEqual(['first', 'second']);
    expect(await q.claim(10, 1000, T0 + 10)).toEqual([]);
    expect(await q.nextDueAt()).toBe(T0 + 1010);
    expect(await q.depth()).toEqual({ queued: 1, claimed: 2, oldestReadyAt: T0 + 5000 });
  });

  it('never claims more than the group limit at once, and shares claims between groups in turn', async () => {
    const q = queue(2);
    await q.schedule([
      ...Array.from({ length: 50 }, (_, i) => ({ id: `slow-${i}`, group: 'slow', dueAt: T0 + i })),
      { id: 'fast-1', group: 'fast', dueAt: T0 + 100 },
      { id: 'fast-2', group: 'fast', dueAt: T0 + 101 },
      { id: 'other-1', group: 'other', dueAt: T0 + 102 },
    ]);
    const claims = await q.claim(10, 1000, T0 + 200);
    expect(claims.map((c) => c.id).sort()).toEqual(['fast-1', 'fast-2', 'other-1', 'slow-0', 'slow-1']);
    expect(await q.claim(10, 1000, T0 + 200)).toEqual([]);
    // 48 wait behind their busy target: queued, but no lag of the dispatchers.
    expect(await q.depth()).toEqual({ queued: 48, claimed: 5, oldestReadyAt: null });
    // A finished item makes room for the next of its group.
    expect(await q.finish(claims.find((c) => c.id === 'slow-0')!)).toBe(true);
    expect((await q.claim(10, 1000, T0 + 200)).map((c) => c.id)).toEqual(['slow-2']);
  });

  it('lets a vacated claim make room in its group while its lease holds until it is finished', async () => {
    const q = queue(1);
    await q.schedule([
      { id: 'a', group: 'g', dueAt: T0 },
      { id: 'b', group: 'g', dueAt: T0 },
    ]);
    const [a] = await q.claim(5, 1000, T0);
    expect(await q.claim(5, 1000, T0)).toEqual([]);
    expect(await q.vacate(a!)).toBe(true);
    expect(await q.vacate(a!)).toBe(false);
    const [b] = await q.claim(5, 1000, T0);
    expect(b?.id).toBe('b');
    // Finishing the vacated claim frees nothing more: b still holds the group's one place.
    expect(await q.finish(a!)).toBe(true);
    await q.schedule([{ id: 'c', group: 'g', dueAt: T0 }]);
    expect(await q.claim(5, 1000, T0)).toEqual([]);
    expect(await q.depth()).toEqual({ queued: 1, claimed: 1, oldestReadyAt: null });
    // A vacated claim whose lease lapses is due again (after c, due earlier), and counts again once claimed.
    expect(await q.vacate(b!)).toBe(true);
    expect((await q.claim(5, 1000, T0 + 1001)).map((c) => c.id)).toEqual(['c']);
    expect(await q.depth()).toEqual({ queued: 1, claimed: 1, oldestReadyAt: null });
  });

  it('vacates a claim and claims the next due items in one call, the place it freed included', async () => {
    const q = queue(1);
    await q.schedule([
      { id: 'a', group: 'g', dueAt: T0 },
      { id: 'b', group: 'g', dueAt: T0 + 1 },
      { id: 'x', group: 'h', dueAt: T0 + 2 },
      { id: 'y', group: 'h', dueAt: T0 + 3 },
    ]);
    const first = await q.claim(5, 1000, T0 + 10);
    expect(first.map((c) => c.id)).toEqual(['a', 'x']);
    const next = await q.vacateAndClaim(first[0]!, 5, 1000, T0 + 10);
    expect(next.map((c) => c.id)).toEqual(['b']);
    // A claim no longer held (vacated already) vacates nothing, and the call still claims what is due.
    expect(await q.vacateAndClaim(first[0]!, 5, 1000, T0 + 10)).toEqual([]);
    // With no place asked for, only the vacate: h's next item waits for a claim.
    expect(await q.vacateAndClaim(first[1]!, 0, 1000, T0 + 10)).toEqual([]);
    expect((await q.claim(5, 1000, T0 + 10)).map((c) => c.id)).toEqual(['y']);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 4, oldestReadyAt: null });
  });

  it('finishes several claims in one call, none of them under a lease that lapsed', async () => {
    const q = queue(5);
    await q.schedule(['a', 'b', 'c'].map((id) => ({ id, group: 'g', dueAt: T0 })));
    const first = await q.claim(5, 1000, T0);
    expect(first).toHaveLength(3);
    // The leases lapse and the items are claimed again: the first claims no longer finish them.
    const again = await q.claim(5, 1000, T0 + 1001);
    expect(again.map((c) => c.id).sort()).toEqual(['a', 'b', 'c']);
    expect(await q.finishMany(first)).toBe(0);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 3, oldestReadyAt: null });
    expect(await q.finishMany(again)).toBe(3);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 0, oldestReadyAt: null });
    expect(await q.claim(5, 1000, T0 + 5000)).toEqual([]);
  });

  it('paces a group with a rate: one second of claims at once, then one per interval, none dropped', async () => {
    const q = createLeaseQueue(redis, { name: uniqueName('lq'), perGroupLimit: 100, perGroupRate: 4 });
    await q.schedule([
      ...Array.from({ length: 10 }, (_, i) => ({ id: `paced-${i}`, group: 'paced', dueAt: T0 })),
      ...Array.from({ length: 3 }, (_, i) => ({ id: `free-${i}`, group: 'free', dueAt: T0 })),
    ]);
    const first = await q.claim(100, 60_000, T0);
    expect(first.filter((c) => c.group === 'paced')).toHaveLength(4);
    expect(first.filter((c) => c.group === 'free')).toHaveLength(3);
    // Not before the next interval (250 ms), then one.
    expect(await q.nextDueAt()).toBe(T0 + 250);
    expect(await q.claim(100, 60_000, T0 + 249)).toEqual([]);
    expect((await q.claim(100, 60_000, T0 + 250)).map((c) => c.id)).toEqual(['paced-4']);
    expect((await q.claim(100, 60_000, T0 + 500)).map((c) => c.id)).toEqual(['paced-5']);
    // After a quiet second a whole second of claims is allowed again; every item is claimed in the end.
    expect(await q.claim(100, 60_000, T0 + 2500)).toHaveLength(4);
    expect(await q.depth()).toMatchObject({ queued: 0 });
  });

  it('paces a group by the rate its newest item carries, over the default', async () => {
    const q = createLeaseQueue(redis, { name: uniqueName('lq'), perGroupLimit: 100, perGroupRate: 50 });
    await q.schedule(Array.from({ length: 3 }, (_, i) => ({ id: `s-${i}`, group: 'slow', dueAt: T0, rate: 1 })));
    expect((await q.claim(100, 60_000, T0)).map((c) => c.id)).toEqual(['s-0']);
    expect(await q.claim(100, 60_000, T0 + 999)).toEqual([]);
    expect((await q.claim(100, 60_000, T0 + 1000)).map((c) => c.id)).toEqual(['s-1']);
    // The endpoint's limit removed: the next item carries none, and the default applies again.
    await q.schedule(Array.from({ length: 5 }, (_, i) => ({ id: `n-${i}`, group: 'slow', dueAt: T0, rate: null })));
    expect(await q.claim(100, 60_000, T0 + 2000)).toHaveLength(6);
  });

  it('claims the items of one key one at a time, in the order scheduled, whatever their retries', async () => {
    const q = queue(10);
    await q.schedule([
      { id: 'u1-first', group: 'g', dueAt: T0, key: 'user_1' },
      { id: 'u1-second', group: 'g', dueAt: T0, key: 'user_1' },
      { id: 'u2-first', group: 'g', dueAt: T0, key: 'user_2' },
      { id: 'unordered', group: 'g', dueAt: T0 },
      { id: 'u1-third', group: 'g', dueAt: T0 - 5000, key: 'user_1' },
    ]);
    expect(await q.depth()).toEqual({ queued: 5, claimed: 0, oldestReadyAt: T0 });
    const claims = await q.claim(10, 1000, T0);
    expect(claims.map((c) => c.id).sort()).toEqual(['u1-first', 'u2-first', 'unordered']);
    const first = claims.find((c) => c.id === 'u1-first')!;
    // A retry keeps its place at the head of the line: the next one of its key waits, due or not.
    expect(await q.retry(first, T0 + 500)).toBe(true);
    expect(await q.claim(10, 1000, T0 + 100)).toEqual([]);
    const [again] = await q.claim(10, 1000, T0 + 500);
    expect(again?.id).toBe('u1-first');
    // So does a lapsed lease.
    const [lapsed] = await q.claim(10, 1000, T0 + 1501);
    expect(lapsed?.id).toBe('u1-first');
    expect(await q.finish(lapsed!)).toBe(true);
    const [second] = await q.claim(10, 1000, T0 + 1502);
    expect(second?.id).toBe('u1-second');
    expect(await q.finish(second!)).toBe(true);
    expect((await q.claim(10, 1000, T0 + 1503)).map((c) => c.id)).toEqual(['u1-third']);
    // A rebuild from the store skips what is in line; a new item of the key joins the end of its line.
    expect(await q.schedule([{ id: 'u1-third', group: 'g', dueAt: T0, key: 'user_1' }])).toBe(0);
    expect(await q.schedule([{ id: 'u1-fourth', group: 'g', dueAt: T0, key: 'user_1' }])).toBe(1);
    expect(await q.claim(10, 1000, T0 + 1504)).toEqual([]);
  });

  it('lines a key up by sequence: an earlier item rebuilt from the store goes before a later one not yet claimed', async () => {
    const q = queue(10);
    await q.schedule([{ id: 'new', group: 'g', dueAt: T0, key: 'k', sequence: 30 }]);
    // The rebuild after Redis lost its data brings back two older ones.
    await q.schedule([
      { id: 'old-1', group: 'g', dueAt: T0 - 100, key: 'k', sequence: 10 },
      { id: 'old-2', group: 'g', dueAt: T0 - 50, key: 'k', sequence: 20 },
    ]);
    expect(await q.depth()).toMatchObject({ queued: 3 });
    const order: string[] = [];
    for (let now = T0; order.length < 3; now++) {
      const claims = await q.claim(10, 1000, now);
      expect(claims.length).toBeLessThanOrEqual(1);
      for (const claim of claims) {
        order.push(claim.id);
        await q.finish(claim);
      }
    }
    expect(order).toEqual(['old-1', 'old-2', 'new']);
    // An earlier one arriving while the first of the line is claimed waits behind it.
    await q.schedule([{ id: 'later', group: 'g', dueAt: T0, key: 'k', sequence: 50 }]);
    const [held] = await q.claim(10, 1000, T0 + 10);
    await q.schedule([{ id: 'earlier', group: 'g', dueAt: T0, key: 'k', sequence: 40 }]);
    expect(await q.claim(10, 1000, T0 + 10)).toEqual([]);
    await q.finish(held!);
    expect((await q.claim(10, 1000, T0 + 10)).map((c) => c.id)).toEqual(['earlier']);
  });

  it('keeps the rate of the latest item: an older one rebuilt, or a redelivery, leaves it', async () => {
    const q = createLeaseQueue(redis, { name: uniqueName('lq'), perGroupLimit: 100 });
    await q.schedule([{ id: 'latest', group: 'g', dueAt: T0, rate: 1, sequence: 20 }]);
    await q.schedule([
      { id: 'older', group: 'g', dueAt: T0, rate: null, sequence: 10 },
      { id: 'redelivered', group: 'g', dueAt: T0, sequence: 30 },
    ]);
    expect(await q.claim(100, 60_000, T0)).toHaveLength(1);
    expect(await q.claim(100, 60_000, T0 + 999)).toEqual([]);
  });

  it('lets nothing of a key past its claimed item when the group is dropped and the key comes back', async () => {
    const q = queue(10);
    await q.schedule([
      { id: 'a', group: 'g', dueAt: T0, key: 'k' },
      { id: 'b', group: 'g', dueAt: T0, key: 'k' },
    ]);
    const [a] = await q.claim(10, 1000, T0);
    expect(await q.dropGroup('g')).toBe(1);
    await q.schedule([{ id: 'c', group: 'g', dueAt: T0, key: 'k' }]);
    expect(await q.claim(10, 1000, T0)).toEqual([]);
    expect(await q.finish(a!)).toBe(true);
    expect((await q.claim(10, 1000, T0)).map((c) => c.id)).toEqual(['c']);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 1, oldestReadyAt: null });
  });

  it('drops the items waiting in line with their group, and starts a key afresh afterwards', async () => {
    const q = queue(10);
    await q.schedule([
      { id: 'a', group: 'g', dueAt: T0, key: 'k' },
      { id: 'b', group: 'g', dueAt: T0, key: 'k' },
      { id: 'c', group: 'g', dueAt: T0, key: 'k' },
      { id: 'd', group: 'g', dueAt: T0, key: 'other' },
    ]);
    const claims = await q.claim(10, 1000, T0);
    const a = claims.find((c) => c.id === 'a')!;
    expect(claims).toHaveLength(2);
    expect(await q.dropGroup('g')).toBe(2);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 2, oldestReadyAt: null });
    expect(await q.finish(a)).toBe(true);
    await q.schedule([
      { id: 'e', group: 'g', dueAt: T0, key: 'k' },
      { id: 'f', group: 'g', dueAt: T0, key: 'k' },
    ]);
    expect((await q.claim(10, 1000, T0)).map((c) => c.id)).toEqual(['e']);
    expect(await q.depth()).toEqual({ queued: 1, claimed: 2, oldestReadyAt: null });
  });

  it('queues a retry at its new time and drops a finished item for good', async () => {
    const q = queue();
    await q.schedule([{ id: 'x', group: 'g', dueAt: T0 }]);
    const [claim] = await q.claim(1, 1000, T0);
    expect(await q.retry(claim!, T0 + 500)).toBe(true);
    expect(await q.claim(1, 1000, T0 + 499)).toEqual([]);
    const [again] = await q.claim(1, 1000, T0 + 500);
    expect(again?.id).toBe('x');
    expect(await q.finish(again!)).toBe(true);
    expect(await q.nextDueAt()).toBeNull();
    expect(await q.depth()).toEqual({ queued: 0, claimed: 0, oldestReadyAt: null });
  });

  it('makes an item whose lease lapsed due again, and ignores its late holder', async () => {
    const q = queue();
    await q.schedule([{ id: 'x', group: 'g', dueAt: T0 }]);
    const [stale] = await q.claim(1, 1000, T0);
    const [fresh] = await q.claim(1, 1000, T0 + 1001);
    expect(fresh?.id).toBe('x');
    expect(fresh!.lease).not.toBe(stale!.lease);
    expect(await q.finish(stale!)).toBe(false);
    expect(await q.retry(stale!, T0)).toBe(false);
    expect(await q.claim(1, 1000, T0 + 1500)).toEqual([]);
    expect(await q.finish(fresh!)).toBe(true);
  });

  it('hands the body of an item to its first claim only, and never to a claim after its lease lapsed', async () => {
    const name = uniqueName('lq');
    const q = createLeaseQueue(redis, { name, perGroupLimit: 5 });
    await q.schedule([
      { id: 'with', group: 'g', dueAt: T0, body: '{"n":1}' },
      { id: 'without', group: 'g', dueAt: T0 },
    ]);
    // Scheduled again with another body (a copy of the request): the first one stays.
    await q.schedule([{ id: 'with', group: 'g', dueAt: T0, body: '{"n":2}' }]);
    const claims = await q.claim(5, 1000, T0);
    expect(claims.map((c) => [c.id, c.body])).toEqual([
      ['with', '{"n":1}'],
      ['without', undefined],
    ]);
    const again = await q.claim(5, 1000, T0 + 1001);
    expect(again.map((c) => [c.id, c.body])).toEqual([
      ['with', undefined],
      ['without', undefined],
    ]);
    expect(await redis.keys(`{${name}}:b:*`)).toEqual([]);
  });

  it('keeps no bodies past its bound on queued items, and drops them with their group', async () => {
    const name = uniqueName('lq');
    const q = createLeaseQueue(redis, { name, perGroupLimit: 5, maxQueuedBodies: 2 });
    await q.schedule(
      Array.from({ length: 4 }, (_, i) => ({
        id: `i${i}`,
        group: 'g',
        dueAt: T0 + i,
        body: `b${i}`,
        key: `k${i % 2}`,
      })),
    );
    expect((await redis.keys(`{${name}}:b:*`)).sort()).toEqual([`{${name}}:b:i0`, `{${name}}:b:i1`]);
    expect(await q.dropGroup('g')).toBe(4);
    expect(await redis.keys(`{${name}}:b:*`)).toEqual([]);
  });

  it('lets a holder take an item by name, renew it and release it, and no one else meanwhile', async () => {
    const q = queue(1);
    expect(await q.hold('lane', 'lane', 'a', 1000, T0)).toBe(true);
    // Renewed by its holder: still held past the first lease.
    expect(await q.hold('lane', 'lane', 'a', 1000, T0 + 900)).toBe(true);
    expect(await q.claim(5, 1000, T0 + 1500)).toEqual([]);
    expect(await q.release('lane', 'lane', 'b')).toBe(false);
    // Released with a retry time: due then, to any claimer, who holds it by name.
    expect(await q.release('lane', 'lane', 'a', T0 + 5000, T0 + 1600)).toBe(true);
    expect(await q.claim(5, 1000, T0 + 4000, 'c')).toEqual([]);
    const [claim] = await q.claim(5, 1000, T0 + 5000, 'c');
    expect(claim?.id).toBe('lane');
    expect(await q.hold('lane', 'lane', 'c', 1000, T0 + 5100)).toBe(true);
    expect(await q.release('lane', 'lane', 'c', undefined, T0 + 5200)).toBe(true);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 0, oldestReadyAt: null });
  });

  it('queues an item asked for while it was held again at its release, and hands a lapsed lease on', async () => {
    const q = queue(1);
    expect(await q.hold('lane', 'lane', 'a', 1000, T0)).toBe(true);
    // Work arrived for it and another holder was turned away: it is due at once when released, whatever the time given.
    expect(await q.hold('lane', 'lane', 'b', 1000, T0 + 10)).toBe(false);
    expect(await q.release('lane', 'lane', 'a', undefined, T0 + 20)).toBe(true);
    expect((await q.claim(5, 1000, T0 + 20, 'b')).map((c) => c.id)).toEqual(['lane']);
    // Its holder died: once the lease lapsed another takes it over by name, and the late one can no longer release it.
    expect(await q.hold('lane', 'lane', 'c', 1000, T0 + 1021)).toBe(true);
    expect(await q.release('lane', 'lane', 'b', undefined, T0 + 1030)).toBe(false);
    expect(await q.release('lane', 'lane', 'c', undefined, T0 + 1040)).toBe(true);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 0, oldestReadyAt: null });
  });

  it('makes an item whose holder died due again, for the next claimer', async () => {
    const q = queue(1);
    expect(await q.hold('lane', 'lane', 'a', 1000, T0)).toBe(true);
    expect(await q.claim(5, 1000, T0 + 500, 'b')).toEqual([]);
    expect((await q.claim(5, 1000, T0 + 1001, 'b')).map((c) => c.id)).toEqual(['lane']);
    expect(await q.hold('lane', 'lane', 'a', 1000, T0 + 1002)).toBe(false);
    expect(await q.hold('lane', 'lane', 'b', 1000, T0 + 1002)).toBe(true);
  });

  it('leaves queued and held items as they are when scheduled again (a rebuild from the store)', async () => {
    const q = queue();
    await q.schedule([
      { id: 'held', group: 'g', dueAt: T0 },
      { id: 'queued', group: 'g', dueAt: T0 + 10_000 },
    ]);
    const [held] = await q.claim(1, 5000, T0);
    expect(held?.id).toBe('held');
    expect(
      await q.schedule([
        { id: 'held', group: 'g', dueAt: T0 },
        { id: 'queued', group: 'g', dueAt: T0 },
        { id: 'lost', group: 'g', dueAt: T0 },
      ]),
    ).toBe(1);
    expect((await q.claim(5, 5000, T0 + 1)).map((c) => c.id)).toEqual(['lost']);
    expect(await q.depth()).toEqual({ queued: 1, claimed: 2, oldestReadyAt: null });
  });

  it('drops the queued items of a group, leaving other groups and claims alone', async () => {
    const q = queue();
    await q.schedule([
      { id: 'a1', group: 'a', dueAt: T0 },
      { id: 'a2', group: 'a', dueAt: T0 },
      { id: 'a3', group: 'a', dueAt: T0 },
      { id: 'b1', group: 'b', dueAt: T0 },
    ]);
    const [a1] = await q.claim(1, 1000, T0);
    expect(await q.dropGroup('a')).toBe(2);
    expect((await q.claim(5, 1000, T0)).map((c) => c.id)).toEqual(['b1']);
    expect(await q.finish(a1!)).toBe(true);
    expect(await q.depth()).toEqual({ queued: 0, claimed: 1, oldestReadyAt: null });
  });

  it('is rebuilt after Redis loses its keys, and runs its scripts again after SCRIPT FLUSH', async () => {
    const name = uniqueName('lq');
    const q = createLeaseQueue(redis, { name, perGroupLimit: 1 });
    await q.schedule([{ id: 'x', group: 'g', dueAt: T0 }]);
    await redis.del(...(await redis.keys(`{${name}}:*`)));
    await redis.script('FLUSH');
    expect(await q.claim(1, 1000, T0)).toEqual([]);
    expect(await q.schedule([{ id: 'x', group: 'g', dueAt: T0 }])).toBe(1);
    expect((await q.claim(1, 1000, T0)).map((c) => c.id)).toEqual(['x']);
  });
});
