import { describe, expect, it } from 'vitest';
import { createLagRegistry, type LagSource } from './consumer-lag.js';

const EVENTS = {
  GROUP_JOIN: 'consumer.group_join',
  START_BATCH_PROCESS: 'consumer.start_batch_process',
  END_BATCH_PROCESS: 'consumer.end_batch_process',
  STOP: 'consumer.stop',
  DISCONNECT: 'consumer.disconnect',
} as const;

/** A consumer that emits the instrumentation events kafkajs emits, with the payload fields lag tracking reads. */
function fakeConsumer() {
  const listeners = new Map<string, Array<(event: { payload: unknown }) => void>>();
  const consumer = {
    events: EVENTS,
    on(name: string, listener: (event: { payload: unknown }) => void) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return () => undefined;
    },
  } as unknown as LagSource;
  const emit = (name: string, payload: unknown) => listeners.get(name)?.forEach((listener) => listener({ payload }));
  return {
    consumer,
    join: (assignment: Record<string, number[]>) =>
      emit(EVENTS.GROUP_JOIN, { groupId: 'p.links-worker', memberAssignment: assignment }),
    batch: (partition: number, lagAtStart: number, lagAtEnd: number, end = true) => {
      emit(EVENTS.START_BATCH_PROCESS, {
        topic: 'p.links.commands',
        partition,
        offsetLagLow: String(lagAtStart),
        offsetLag: String(lagAtEnd),
      });
      if (end)
        emit(EVENTS.END_BATCH_PROCESS, {
          topic: 'p.links.commands',
          partition,
          offsetLagLow: String(lagAtStart),
          offsetLag: String(lagAtEnd),
        });
    },
    disconnect: () => emit(EVENTS.DISCONNECT, {}),
  };
}

describe('consumer lag', () => {
  it('is the backlog of each held partition, by logical group and topic, and 0 once a rebalance moves it away', () => {
    const registry = createLagRegistry();
    const member = fakeConsumer();
    registry.track(member.consumer, 'p.');
    member.join({ 'p.links.commands': [0, 1] });
    member.batch(0, 500, 20);
    // A handler stuck on its batch: the whole backlog from the batch's first message stays visible.
    member.batch(1, 300, 0, false);
    expect(registry.lags()).toEqual([
      { group: 'links-worker', topic: 'links.commands', partition: 0, lag: 20 },
      { group: 'links-worker', topic: 'links.commands', partition: 1, lag: 300 },
    ]);
    // Partition 0 moved to another member: it reports 0 here (the other member reports its lag).
    member.join({ 'p.links.commands': [1] });
    expect(registry.lags().map((p) => [p.partition, p.lag])).toEqual([
      [0, 0],
      [1, 300],
    ]);
    member.batch(1, 300, 5);
    expect(registry.lags().map((p) => [p.partition, p.lag])).toEqual([
      [0, 0],
      [1, 5],
    ]);
    member.disconnect();
    expect(registry.lags().map((p) => p.lag)).toEqual([0, 0]);
  });
});
