import { createHash } from 'node:crypto';
import type { Session } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createRedisSessionStore, type SessionRedis } from './session.js';

const key = (id: string) => `p:${createHash('sha256').update(id).digest('hex')}`;

function store(redis: Partial<SessionRedis>) {
  const unused = () => Promise.reject(new Error('not expected'));
  return createRedisSessionStore(
    { getex: unused, set: unused, del: unused, ...redis },
    { ttlSeconds: 60, keyPrefix: 'p:' },
  );
}

const get = (sessions: ReturnType<typeof store>, id: string) =>
  new Promise<unknown>((resolve, reject) =>
    sessions.get(id, (error, session) => (error ? reject(error) : resolve(session))),
  );

describe('the Redis session store', () => {
  it('stores the data without the cookie under the hashed id, for the idle time', async () => {
    const calls: unknown[][] = [];
    const sessions = store({ set: async (...args) => void calls.push(args) });
    const session = { cookie: { originalMaxAge: null, secure: true }, userId: 'usr_1', _csrf: 's' } as Session;
    await new Promise<void>((resolve, reject) => sessions.set('id-1', session, (e) => (e ? reject(e) : resolve())));
    expect(calls).toEqual([[key('id-1'), '{"userId":"usr_1","_csrf":"s"}', 'EX', 60]]);
  });

  it('reads nothing for an id it could not have issued, or for a value it did not write', async () => {
    expect(await get(store({}), 'x'.repeat(129))).toBeNull();
    expect(await get(store({}), '')).toBeNull();
    for (const stored of ['not json', '[1]', 'null', '"text"', null])
      expect(await get(store({ getex: async () => stored }), 'id-1')).toBeNull();
    expect(await get(store({ getex: async () => '{"userId":"usr_1"}' }), 'id-1')).toEqual({ userId: 'usr_1' });
  });

  it('passes Redis failures on', async () => {
    const down = new Error('connection lost');
    await expect(get(store({ getex: () => Promise.reject(down) }), 'id-1')).rejects.toBe(down);
    const sessions = store({ del: () => Promise.reject(down) });
    await expect(
      new Promise<void>((resolve, reject) => sessions.destroy('id-1', (e) => (e ? reject(e) : resolve()))),
    ).rejects.toBe(down);
  });
});
