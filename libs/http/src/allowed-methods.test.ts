import { describe, expect, it } from 'vitest';
import { allowedMethods } from './allowed-methods.js';

describe('allowedMethods', () => {
  it('names the methods of every route whose pattern matches the path', () => {
    const allowed = allowedMethods();
    allowed.add({ url: '/v4/shortlinks', method: 'POST' });
    allowed.add({ url: '/v4/shortlinks/:id', method: ['GET', 'HEAD'] });
    allowed.add({ url: '/v4/shortlinks/:id', method: 'PATCH' });
    allowed.add({ url: '/v4/shortlinks/:domain/:hash', method: 'DELETE' });
    expect(allowed.of('/v4/shortlinks/abc')).toEqual(['GET', 'HEAD', 'PATCH']);
    expect(allowed.of('/v4/shortlinks/sho.rt/abc')).toEqual(['DELETE']);
    expect(allowed.of('/v4/shortlinks')).toEqual(['POST']);
  });

  it('knows no methods for a path no route has, and treats pattern characters literally', () => {
    const allowed = allowedMethods();
    allowed.add({ url: '/v2/me.json', method: 'GET' });
    expect(allowed.of('/v2/meXjson')).toEqual([]);
    expect(allowed.of('/nowhere')).toEqual([]);
  });
});
