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

  it('answers for a literal path with its own methods, not those of a parametric path that also matches it', () => {
    const allowed = allowedMethods();
    allowed.add({ url: '/v2/teams/:teamId', method: ['GET', 'PATCH', 'DELETE'] });
    allowed.add({ url: '/v2/teams/me', method: 'GET' });
    expect(allowed.of('/v2/teams/me')).toEqual(['GET']);
    expect(allowed.of('/v2/teams/7')).toEqual(['DELETE', 'GET', 'PATCH']);
  });

  it('knows no methods for a path no route has, and treats pattern characters literally', () => {
    const allowed = allowedMethods();
    allowed.add({ url: '/v2/me.json', method: 'GET' });
    expect(allowed.of('/v2/meXjson')).toEqual([]);
    expect(allowed.of('/nowhere')).toEqual([]);
  });
});

describe('allowedMethods.shadowing', () => {
  it('names the methods of a literal route a parametric route would otherwise serve', () => {
    const allowed = allowedMethods();
    allowed.add({ url: '/v2/teams/:teamId', method: ['GET', 'PATCH', 'DELETE'] });
    allowed.add({ url: '/v2/teams/me', method: 'GET' });
    allowed.add({ url: '/v2/users/:id', method: 'GET' });
    expect(allowed.shadowing('/v2/teams/:teamId', '/v2/teams/me')).toEqual(['GET']);
    expect(allowed.shadowing('/v2/teams/:teamId', '/v2/teams/7')).toBeUndefined();
    expect(allowed.shadowing('/v2/users/:id', '/v2/users/me')).toBeUndefined();
  });
});
