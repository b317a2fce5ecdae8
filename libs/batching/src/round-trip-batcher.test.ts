import { describe, expect, it } from 'vitest';
import { roundTripBatcher } from './round-trip-batcher.js';

/** A store stand-in whose round trips finish when the test says so. */
function controlledRoundTrips() {
  const trips: Array<{ inputs: number[]; finish: (error?: Error) => void }> = [];
  const run = (inputs: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      trips.push({ inputs, finish: (error) => (error ? reject(error) : resolve(inputs.map((n) => n * 10))) });
    });
  return { trips, run };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('roundTripBatcher', () => {
  it('sends the first call at once and joins the calls made meanwhile into one next round trip', async () => {
    const { trips, run } = controlledRoundTrips();
    const call = roundTripBatcher(run);
    const first = call(1);
    expect(trips.map((t) => t.inputs)).toEqual([[1]]);
    const rest = [call(2), call(3), call(4)];
    await settle();
    expect(trips).toHaveLength(1);
    trips[0]!.finish();
    expect(await first).toBe(10);
    await settle();
    expect(trips.map((t) => t.inputs)).toEqual([[1], [2, 3, 4]]);
    trips[1]!.finish();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('fails only the calls of a failed round trip, and goes on with the next', async () => {
    const { trips, run } = controlledRoundTrips();
    const call = roundTripBatcher(run);
    const first = call(1);
    const second = call(2);
    trips[0]!.finish(new Error('store unreachable'));
    await expect(first).rejects.toThrow('store unreachable');
    await settle();
    trips[1]!.finish();
    expect(await second).toBe(20);
  });

  it('splits the waiting calls into batches of at most maxBatch', async () => {
    const { trips, run } = controlledRoundTrips();
    const call = roundTripBatcher(run, { maxBatch: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => call(n));
    for (let i = 0; i < 3; i++) {
      await settle();
      trips[i]!.finish();
    }
    expect(await Promise.all(all)).toEqual([10, 20, 30, 40, 50]);
    expect(trips.map((t) => t.inputs)).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('sends the calls made together by all in one round trip, and joins them to one in flight', async () => {
    const { trips, run } = controlledRoundTrips();
    const call = roundTripBatcher(run);
    const together = call.all([1, 2, 3]);
    expect(trips.map((t) => t.inputs)).toEqual([[1, 2, 3]]);
    const later = call.all([4, 5]);
    const single = call(6);
    trips[0]!.finish();
    expect(await together).toEqual([10, 20, 30]);
    await settle();
    expect(trips.map((t) => t.inputs)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    trips[1]!.finish();
    expect(await later).toEqual([40, 50]);
    expect(await single).toBe(60);
    expect(await call.all([])).toEqual([]);
  });

  it('rejects the calls of a round trip that answers a different number of results', async () => {
    const call = roundTripBatcher(async (inputs: number[]) => inputs.slice(1));
    await expect(call(1)).rejects.toThrow('answered 0 of 1 calls');
  });
});
