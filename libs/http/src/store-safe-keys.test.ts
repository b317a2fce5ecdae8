import { describe, expect, it } from 'vitest';
import { storeUnsafeKey } from './store-safe-keys.js';

describe('storeUnsafeKey', () => {
  it('finds a dotted, a $-prefixed or a NUL key at any depth, naming where', () => {
    expect(storeUnsafeKey({ metadata: { 'a.b': 'x' } })).toMatchObject({ field: 'metadata', code: 'invalid_key' });
    expect(storeUnsafeKey({ metadata: { $where: 'x' } })?.message).toBe(
      'metadata."$where": a key may not contain "." or NUL characters, nor start with "$"',
    );
    expect(storeUnsafeKey({ list: [{ ok: 1 }, { 'n\u0000ul': 2 }] })).toMatchObject({ field: 'list.1' });
    expect(storeUnsafeKey({ 'top.level': 1 })).toMatchObject({ field: 'top.level' });
  });

  it('accepts ordinary bodies, values with those characters, arrays and raw bytes', () => {
    expect(storeUnsafeKey({ email: 'a.b@example.com', price: '$5', nested: { ok: ['x.y', '$z'] } })).toBeUndefined();
    expect(storeUnsafeKey(Buffer.from('{"a.b":1}'))).toBeUndefined();
    expect(storeUnsafeKey(undefined)).toBeUndefined();
    expect(storeUnsafeKey('a.b')).toBeUndefined();
  });
});
