import { describe, expect, it } from 'vitest';
import { MessageTypeNames } from '@platform/contracts';
// The OAuth commands' replies (declared in @platform/oauth) make them sendable here.
import type {} from '@platform/oauth';
import { fake, fakeClock, fakeCommandBus, fakeMessage } from './fakes.js';

describe('handler fakes', () => {
  it('records the calls of arranged methods and refuses any other, by name', async () => {
    const store = fake<{ get(id: string): Promise<string>; put(id: string): Promise<void> }>({
      get: async (id) => `doc ${id}`,
    });
    expect(await store.get('a')).toBe('doc a');
    expect(store.calls).toEqual([{ method: 'get', args: ['a'] }]);
    expect(() => store.put('b')).toThrow('fake: put was called but not arranged');
  });

  it('answers commands it was told to answer, and fails the others as a rejection would', async () => {
    const bus = fakeCommandBus({ [MessageTypeNames.RevokeGrant]: (value) => ({ revoked: value.grant_id === 'g1' }) });
    const value = {
      grant_id: 'g1',
      client_id: 'c',
      client_secret_hash: null,
      refresh_token_hash: null,
      reason: 'test',
    };
    await expect(bus.send(MessageTypeNames.RevokeGrant, 'k', value)).resolves.toEqual({ revoked: true });
    await expect(
      bus.send(MessageTypeNames.RevokeClientSecret, 'k', { client_id: 'c', owner_user_id: 'u', secret_id: 's' }),
    ).rejects.toThrow(/no answer/);
    expect(bus.sent.map((s) => [s.type, s.topic])).toEqual([
      [MessageTypeNames.RevokeGrant, 'oauth.commands'],
      [MessageTypeNames.RevokeClientSecret, 'oauth.commands'],
    ]);
  });

  it('keeps a clock that moves only when told', () => {
    const clock = fakeClock('2030-01-01T00:00:00Z');
    const start = clock.now();
    clock.advance(60_000);
    expect(clock.now() - start).toBe(60_000);
  });

  it('builds a message with the headers a gateway sends', () => {
    const message = fakeMessage(
      MessageTypeNames.RevokeGrant,
      { grant_id: 'g', client_id: 'c', client_secret_hash: null, refresh_token_hash: null, reason: 'r' },
      { correlationId: 'c1' },
    );
    expect(message.meta).toMatchObject({ type: MessageTypeNames.RevokeGrant, correlationId: 'c1' });
    expect(message.meta.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
