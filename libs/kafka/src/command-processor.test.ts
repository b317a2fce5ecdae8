import { describe, expect, it } from 'vitest';
import { createLogger } from '@platform/telemetry';
import { createCommandProcessor, type StoredReply } from './command-processor.js';
import type { IncomingMessage } from './consumer.js';

function harness(expired?: 'run' | 'skip', fails?: () => Error) {
  const saved = new Map<string, StoredReply>();
  const published: string[] = [];
  const processor = createCommandProcessor({
    store: { get: async (id) => saved.get(id), save: async (id, reply) => void saved.set(id, reply) },
    transport: { publish: async (_to: string, body: string) => void published.push(body) } as never,
    logger: createLogger({ name: 'test', level: 'silent' }),
    now: () => 10_000,
    ...(expired ? { expired } : {}),
  });
  let runs = 0;
  const handler = processor.wrap(async () => {
    runs += 1;
    if (fails) throw fails();
    return { done: true };
  });
  const message = (id: string, deadline: number) =>
    ({
      meta: { id, type: 't', source: 's', time: '', schema: '', correlationId: 'c', replyTo: 'r', deadline, raw: {} },
      value: {},
    }) as unknown as IncomingMessage<never>;
  return { saved, published, handler, message, runs: () => runs };
}

describe('command processor and deadlines', () => {
  it('runs a command whose sender stopped waiting by default: its effect stands', async () => {
    const h = harness();
    await h.handler(h.message('a', 5_000));
    expect(h.runs()).toBe(1);
    expect(h.saved.get('a')).toEqual({ ok: true, result: { done: true } });
  });

  it('skips it with expired: skip, records a deadline error, and replays that on redelivery', async () => {
    const h = harness('skip');
    await h.handler(h.message('b', 5_000));
    await h.handler(h.message('b', 5_000));
    expect(h.runs()).toBe(0);
    expect(h.saved.get('b')).toMatchObject({ ok: false, error: { kind: 'deadline', code: 'deadline_exceeded' } });
    await h.handler(h.message('c', 20_000));
    expect(h.runs()).toBe(1);
  });
});

describe('command processor and store failures', () => {
  it("answers a store's unique-key violation as a conflict at once: no retry, no dead letter", async () => {
    const h = harness(undefined, () =>
      Object.assign(new Error('ERROR: duplicate key value violates unique constraint "u" (SQLSTATE 23505)'), {
        code: 1,
      }),
    );
    await h.handler(h.message('d', 20_000));
    expect(h.saved.get('d')).toMatchObject({ ok: false, error: { kind: 'conflict', code: 'duplicate_key' } });
    expect(h.published).toHaveLength(1);
    // A redelivery answers from the stored reply.
    await h.handler(h.message('d', 20_000));
    expect(h.runs()).toBe(1);
  });

  it('leaves an unknown fault and an unreachable store to the consumer to retry', async () => {
    for (const fails of [
      () => new Error('boom'),
      () => Object.assign(new Error('connection closed'), { name: 'MongoNetworkError' }),
    ]) {
      const h = harness(undefined, fails);
      await expect(h.handler(h.message('e', 20_000))).rejects.toThrow();
      expect(h.saved.size).toBe(0);
    }
  });
});
