import { describe, expect, it } from 'vitest';
import { normaliseOrigin, validateRedirectUri } from './urls.js';

describe('origins and redirect URIs', () => {
  it('normalises an origin to scheme://host[:port]', () => {
    expect(normaliseOrigin('https://App.Example.com')).toBe('https://app.example.com');
    expect(normaliseOrigin('http://localhost:5173/')).toBe('http://localhost:5173');
  });

  it.each(['ftp://x.com', 'https://x.com/path', 'https://x.com?q=1', 'not a url', 'https://u:p@x.com'])(
    'rejects origin %s',
    (value) => expect(() => normaliseOrigin(value)).toThrow(),
  );

  it('accepts https, localhost http and native schemes; rejects the rest', () => {
    expect(validateRedirectUri('https://app.example.com/callback')).toBe('https://app.example.com/callback');
    expect(validateRedirectUri('http://localhost:3000/cb')).toBe('http://localhost:3000/cb');
    expect(validateRedirectUri('com.example.app:/oauth')).toBe('com.example.app:/oauth');
    expect(() => validateRedirectUri('http://example.com/cb')).toThrow(/https/);
    expect(() => validateRedirectUri('https://example.com/cb#frag')).toThrow(/fragment/);
    expect(() => validateRedirectUri('javascript:alert(1)')).toThrow(/scheme/);
  });
});
