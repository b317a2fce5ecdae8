import { describe, expect, it } from 'vitest';
import { createLogger } from '@platform/telemetry';
import { createCommandProcessor, type StoredReply } from './command-processor.js';
import type { IncomingMessage } from './consumer.js';

function harness(expired?: 'run' | 'skip', fails?: () => Error) {
  const saved = new Map<string, StoredReply>();
  const published: string[] = [];
  const processor = createCommandProcessor({
    store: {
      getMany: async (ids) => ids.map((id) => saved.get(id)),
      saveMany: async (replies) => replies.forEach(({ commandId, reply }) => saved.set(commandId, reply)),
    },
    transport: { publish: async (_to: string, body: string) => void published.push(body) } as never,
    logger: createLogger({ name: 'test', level: 'silent' }),
    now: () => 10_000,
    ...(expired ? { expired } : {}),
  });
  let runs = 0;
  const handle = async () => {
    runs += 1;
    if (fails) throw fails();
    return { done: true };
  };
  /** One command in a batch of its own. */
  const handler = async (message: IncomingMessage) => {
    const batch = await processor.batch([message]);
    await batch.run(message, handle);
    await batch.close();
  };
  const message = (id: string, deadline: number) =>
    ({
      meta: { id, type: 't', source: 's', time: '', schema: '', correlationId: 'c', replyTo: 'r', deadline, raw: {} },
      value: {},
    }) as unknown as IncomingMessage;
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

describe('command processor over a batch', () => {
  function batchHarness(options: { failSaves?: number } = {}) {
    const saved = new Map<string, StoredReply>([['old', { ok: true, result: 'stored before' }]]);
    const calls: string[] = [];
    const published: Array<{ correlation_id: string; result?: unknown }> = [];
    const stored: string[] = [];
    let failSaves = options.failSaves ?? 0;
    const processor = createCommandProcessor({
      store: {
        getMany: async (ids) => {
          calls.push(`getMany ${ids.join(',')}`);
          return ids.map((id) => saved.get(id));
        },
        saveMany: async (replies) => {
          calls.push(`saveMany ${replies.map((r) => r.commandId).join(',')}`);
          if (failSaves-- > 0) throw new Error('store unreachable');
          for (const { commandId, reply } of replies) saved.set(commandId, reply);
        },
      },
      transport: {
        publish: async (_to: string, body: string) => {
          calls.push('publish');
          published.push(JSON.parse(body) as never);
        },
      } as never,
      logger: createLogger({ name: 'test', level: 'silent' }),
      afterStored: async (message) => void stored.push(message.meta.id),
    });
    const message = (id: string, correlationId = id) =>
      ({
        meta: { id, type: 't', source: 's', time: '', schema: '', correlationId, replyTo: 'r', raw: {} },
        value: {},
      }) as unknown as IncomingMessage;
    let runs = 0;
    const handler = async (m: IncomingMessage) => {
      runs += 1;
      calls.push(`run ${m.meta.id}`);
      return { id: m.meta.id };
    };
    return { processor, message, handler, saved, calls, published, stored, runs: () => runs };
  }

  it('reads the stored replies of the batch once, runs the new commands in order, and stores their replies once', async () => {
    const h = batchHarness();
    const messages = [h.message('a'), h.message('old'), h.message('b')];
    const batch = await h.processor.batch(messages);
    for (const m of messages) await batch.run(m, h.handler);
    await batch.close();
    expect(h.calls).toEqual(['getMany a,old,b', 'run a', 'publish', 'publish', 'run b', 'publish', 'saveMany a,b']);
    expect(h.published).toEqual([
      { correlation_id: 'a', ok: true, result: { id: 'a' } },
      { correlation_id: 'old', ok: true, result: 'stored before' },
      { correlation_id: 'b', ok: true, result: { id: 'b' } },
    ]);
    expect(h.saved.get('b')).toEqual({ ok: true, result: { id: 'b' } });
    expect(h.stored).toEqual(['a', 'old', 'b']);
  });

  it('runs a command that comes twice in one batch once, and answers both', async () => {
    const h = batchHarness();
    const messages = [h.message('a', 'first'), h.message('a', 'second')];
    const batch = await h.processor.batch(messages);
    for (const m of messages) await batch.run(m, h.handler);
    await batch.close();
    expect(h.runs()).toBe(1);
    expect(h.published.map((p) => p.correlation_id)).toEqual(['first', 'second']);
    expect(h.calls.filter((c) => c.startsWith('saveMany'))).toEqual(['saveMany a']);
  });

  it('keeps the replies of a failed close to store on the next, and only then runs afterStored', async () => {
    const h = batchHarness({ failSaves: 1 });
    const batch = await h.processor.batch([h.message('a')]);
    await batch.run(h.message('a'), h.handler);
    await expect(batch.close()).rejects.toThrow('store unreachable');
    expect(h.stored).toEqual([]);
    await batch.close();
    expect(h.saved.has('a')).toBe(true);
    expect(h.stored).toEqual(['a']);
    expect(h.runs()).toBe(1);
  });

  it('leaves a retriable failure to the consumer without storing or answering anything for it', async () => {
    const h = batchHarness();
    const batch = await h.processor.batch([h.message('a'), h.message('b')]);
    await batch.run(h.message('a'), h.handler);
    await expect(batch.run(h.message('b'), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await batch.run(h.message('b'), h.handler);
    await batch.close();
    expect(h.published.map((p) => p.correlation_id)).toEqual(['a', 'b']);
    expect(h.stored).toEqual(['a', 'b']);
  });
});
