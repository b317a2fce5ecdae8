import { describe, expect, it } from 'vitest';
import { storeUnsafeKey } from './store-safe-keys.js';

describe('storeUnsafeKey', () => {
  it('finds a dotted, a $-prefixed or a NUL key at any depth, naming where', () => {
    expect(storeUnsafeKey({ metadata: { 'a.b': 'x' } })).toMatchObject({ field: 'metadata', code: 'invalid_key' });
    expect(storeUnsafeKey({ metadata: { $where: 'x' } })?.message).toBe(
      'metadata."$where": a key may not be empty, contain "." or NUL characters, nor start with "$"',
    );
    expect(storeUnsafeKey({ list: [{ ok: 1 }, { 'n\u0000ul': 2 }] })).toMatchObject({ field: 'list.1' });
    expect(storeUnsafeKey({ 'top.level': 1 })).toMatchObject({ field: 'top.level' });
    // FerretDB refuses an empty field name: the store would fail the write (a 500), so the edge refuses it.
    expect(storeUnsafeKey({ metadata: { ok: 'x', '': 'y' } })).toMatchObject({
      field: 'metadata',
      code: 'invalid_key',
    });
  });

  it('accepts ordinary bodies, values with those characters, arrays and raw bytes', () => {
    expect(storeUnsafeKey({ email: 'a.b@example.com', price: '$5', nested: { ok: ['x.y', '$z'] } })).toBeUndefined();
    expect(storeUnsafeKey(Buffer.from('{"a.b":1}'))).toBeUndefined();
    expect(storeUnsafeKey(undefined)).toBeUndefined();
    expect(storeUnsafeKey('a.b')).toBeUndefined();
  });

  it('with the body schema, judges only the keys a client chooses: maps, not members the schema ignores', () => {
    const schema = {
      type: 'object',
      properties: {
        metadata: { type: 'object', patternProperties: { '^(.*)$': { type: 'string' } } },
        settings: { $ref: 'Settings' },
        list: { type: 'array', items: { type: 'object', additionalProperties: { type: 'number' } } },
      },
    };
    const resolve = (id: string) =>
      id === 'Settings' ? { type: 'object', additionalProperties: { type: 'boolean' } } : undefined;
    expect(storeUnsafeKey({ metadata: { 'a.b': 'x' } }, schema, resolve)).toMatchObject({ field: 'metadata' });
    expect(storeUnsafeKey({ settings: { $x: true } }, schema, resolve)).toMatchObject({ field: 'settings' });
    expect(storeUnsafeKey({ list: [{ ok: 1 }, { '': 2 }] }, schema, resolve)).toMatchObject({ field: 'list.1' });
    // Members the schema does not name are dropped by the handlers, never stored.
    expect(storeUnsafeKey({ '': 1, $where: { 'a.b': 1 }, metadata: { fine: 'x' } }, schema, resolve)).toBeUndefined();
  });
});

describe('storeUnsafeKey and NUL in values', () => {
  it('names a string value with a NUL character, wherever the schema lets it be stored', () => {
    expect(storeUnsafeKey({ first_name: 'a\u0000b' })).toMatchObject({
      field: 'first_name',
      code: 'invalid_character',
    });
    expect(storeUnsafeKey({ metadata: { plan: ['x', 'y\u0000'] } })).toMatchObject({ field: 'metadata.plan.1' });
    expect(storeUnsafeKey({ first_name: 'ab' })).toBeUndefined();
  });
});
