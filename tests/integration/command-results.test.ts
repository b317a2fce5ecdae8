import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo, createMongoCommandResultStore, type MongoConnection } from '@platform/mongo';
import { resolveInfra, uniqueName } from '@platform/testing';

// The command processor's dedupe records: what a redelivered command answers. Commands in flight at once share
// the store's round trips, which must not mix their replies up.
let mongo: MongoConnection;
const sealer = { seal: (s: string) => `sealed:${s}`, open: (s: string) => s.slice('sealed:'.length) };
const commands: string[] = [];

beforeAll(async () => {
  const infra = resolveInfra();
  const name = uniqueName('cmdres');
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  mongo.getClient().on('commandStarted', (event) => {
    if (event.commandName === 'find' || event.commandName === 'insert' || event.commandName === 'update') {
      commands.push(event.commandName);
    }
  });
}, 60_000);

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe('command results store', () => {
  it('answers each of many concurrent commands with its own reply, in fewer round trips than commands', async () => {
    const store = createMongoCommandResultStore(mongo, { sealer, collection: 'results_concurrent' });
    const ids = Array.from({ length: 40 }, (_, i) => `cmd-${i}`);
    commands.length = 0;
    expect(await Promise.all(ids.map((id) => store.get(id)))).toEqual(ids.map(() => undefined));
    await Promise.all(ids.map((id, i) => store.save(id, { ok: true, result: { n: i } })));
    const replies = await Promise.all([...ids].reverse().map((id) => store.get(id)));
    expect(replies).toEqual([...ids].reverse().map((_, i) => ({ ok: true, result: { n: ids.length - 1 - i } })));
    // The first call of each kind goes alone; the 39 made meanwhile share the next round trip.
    expect(commands.filter((c) => c === 'find').length).toBeLessThanOrEqual(4);
    expect(commands.filter((c) => c === 'insert').length).toBeLessThanOrEqual(2);
    const stored = await mongo.db!.collection('results_concurrent').findOne({ _id: 'cmd-7' as never });
    expect(stored?.['sealed_reply']).toBe('sealed:{"ok":true,"result":{"n":7}}');
  });

  it("reads and saves a partition's batch of commands in one round trip each", async () => {
    const store = createMongoCommandResultStore(mongo, { sealer, collection: 'results_batch' });
    await store.save('seen', { ok: true, result: 'before' });
    const ids = ['a', 'seen', 'b', 'c'];
    commands.length = 0;
    expect(await store.getMany(ids)).toEqual([undefined, { ok: true, result: 'before' }, undefined, undefined]);
    await store.saveMany(['a', 'b', 'c'].map((commandId) => ({ commandId, reply: { ok: true, result: commandId } })));
    expect(commands).toEqual(['find', 'insert']);
    expect(await store.getMany(ids)).toEqual(['a', 'before', 'b', 'c'].map((result) => ({ ok: true, result })));
  });

  it('overwrites a reply saved again, also when the same batch holds other new replies', async () => {
    const store = createMongoCommandResultStore(mongo, { sealer, collection: 'results_again' });
    await store.save('twice', { ok: true, result: 'first' });
    await Promise.all([
      store.save('hold', { ok: true, result: 'hold' }),
      store.save('twice', { ok: false, error: { kind: 'conflict', code: 'c', message: 'second' } as never }),
      store.save('new', { ok: true, result: 'new' }),
    ]);
    expect(await store.get('twice')).toEqual({
      ok: false,
      error: { kind: 'conflict', code: 'c', message: 'second' },
    });
    expect(await store.get('new')).toEqual({ ok: true, result: 'new' });
    expect(await mongo.db!.collection('results_again').countDocuments()).toBe(3);
  });

  it('treats an expired reply as absent, and saves over it', async () => {
    const store = createMongoCommandResultStore(mongo, { sealer, collection: 'results_expired', ttlMs: -1 });
    await store.save('old', { ok: true, result: 1 });
    expect(await store.get('old')).toBeUndefined();
    const fresh = createMongoCommandResultStore(mongo, { sealer, collection: 'results_expired' });
    await fresh.save('old', { ok: true, result: 2 });
    expect(await fresh.get('old')).toEqual({ ok: true, result: 2 });
  });
});
