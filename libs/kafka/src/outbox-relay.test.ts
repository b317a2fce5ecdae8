import { describe, expect, it } from 'vitest';
import { createOutboxRelay, type OutboxEntry, type OutboxSource } from './outbox-relay.js';
import type { Publisher } from './publisher.js';

const logger = { warn: () => {}, error: () => {}, info: () => {}, debug: () => {} } as never;

/** A source held in memory that records each acknowledging store write. */
function memorySource() {
  const outboxes = new Map<string, OutboxEntry[]>();
  const writes: string[][] = [];
  const clear = (docId: string) => outboxes.set(docId, []);
  const source: OutboxSource = {
    name: 'docs',
    pending: async (limit) =>
      [...outboxes]
        .filter(([, entries]) => entries.length > 0)
        .slice(0, limit)
        .map(([docId, entries]) => ({ docId, entries })),
    pendingIn: async (ids) => ids.map((docId) => ({ docId, entries: outboxes.get(docId) ?? [] })),
    acknowledge: async (docId) => {
      writes.push([docId]);
      clear(docId);
    },
    acknowledgeMany: async (docs) => {
      writes.push(docs.map((d) => d.docId));
      for (const d of docs) clear(d.docId);
    },
  };
  return { source, outboxes, writes };
}

function countingPublisher() {
  const sent: string[] = [];
  const publisher = {
    publishMany: async (messages: Array<{ id?: string }>) => {
      sent.push(...messages.map((m) => m.id!));
      return messages.map((m) => m.id!);
    },
  } as unknown as Publisher;
  return { publisher, sent };
}

const entry = (id: string): OutboxEntry => ({ id, topic: 't', key: id, type: 'platform.test' as never, value: {} });
const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe('the outbox relay', () => {
  it('publishes each hinted document at once and acknowledges those of one gathering time in one write', async () => {
    const { source, outboxes, writes } = memorySource();
    const { publisher, sent } = countingPublisher();
    const relay = createOutboxRelay({ publisher, sources: [source], logger, ackGatherMs: 200 });
    for (const id of ['a', 'b', 'c']) {
      outboxes.set(id, [entry(id)]);
      relay.wake([{ source: 'docs', docId: id, entries: [entry(id)] }]);
      await until(() => sent.includes(id));
    }
    expect(writes).toEqual([]);
    // Published and waiting for their acknowledgement: the sweep leaves them alone.
    expect(await relay.flush()).toBe(0);
    await until(() => writes.length > 0);
    expect(writes).toEqual([['a', 'b', 'c']]);
    expect(sent).toEqual(['a', 'b', 'c']);
  });

  it('acknowledges what is waiting when it stops', async () => {
    const { source, outboxes, writes } = memorySource();
    const { publisher, sent } = countingPublisher();
    const relay = createOutboxRelay({ publisher, sources: [source], logger, ackGatherMs: 60_000 });
    outboxes.set('a', [entry('a')]);
    relay.wake([{ source: 'docs', docId: 'a', entries: [entry('a')] }]);
    await until(() => sent.includes('a'));
    await relay.stop();
    expect(writes).toEqual([['a']]);
  });

  it('leaves a document whose acknowledgement failed to the sweep, which acknowledges it without publishing again', async () => {
    const { source, outboxes, writes } = memorySource();
    const { publisher, sent } = countingPublisher();
    let failures = 1;
    const failing: OutboxSource = {
      ...source,
      acknowledge: async (docId, entries) => {
        if (failures-- > 0) throw new Error('store unreachable');
        return source.acknowledge(docId, entries);
      },
    };
    const relay = createOutboxRelay({ publisher, sources: [failing], logger, ackGatherMs: 10 });
    outboxes.set('a', [entry('a')]);
    relay.wake([{ source: 'docs', docId: 'a', entries: [entry('a')] }]);
    // The sweep skips the document while its failed acknowledgement holds it, and takes it once released.
    let swept = 0;
    for (let i = 0; i < 200 && swept === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      swept = await relay.flush();
    }
    expect(failures).toBe(-1);
    expect(swept).toBe(1);
    expect(writes).toEqual([['a']]);
    expect(sent).toEqual(['a']);
  });
});
