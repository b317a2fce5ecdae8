import { describe, expect, it } from 'vitest';
import { DEFAULT_LANDING, isSafeReturnTo, safeReturnTo } from './return-to.js';

describe('return_to', () => {
  it.each([
    '/settings/developer/oauth',
    '/auth/oauth2/authorize?client_id=a&redirect_uri=https%3A%2F%2Fx.example%2Fcb',
    '/',
    '/%0a',
  ])('accepts the local path %s', (path) => {
    expect(isSafeReturnTo(path)).toBe(true);
    expect(safeReturnTo(path)).toBe(path);
  });

  it.each([
    'https://evil.example.com/',
    '//evil.example.com/x',
    '/\\evil.example.com',
    '/\\/evil.example.com',
    '\\\\evil.example.com',
    'javascript:alert(1)',
    '/\tevil',
    '',
    'settings',
    undefined,
    ['/a'],
  ])('refuses %s', (value) => {
    expect(safeReturnTo(value)).toBe(DEFAULT_LANDING);
  });
});
