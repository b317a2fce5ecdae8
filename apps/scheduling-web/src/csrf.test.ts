import { describe, expect, it } from 'vitest';
import { csrfTokenMatches, originAllowed } from './csrf.js';

describe('CSRF checks', () => {
  it('matches only the exact expected token', () => {
    expect(csrfTokenMatches('token-abc', 'token-abc')).toBe(true);
    expect(csrfTokenMatches('token-abc', 'token-abd')).toBe(false);
    expect(csrfTokenMatches('token-abc', 'token-ab')).toBe(false);
    expect(csrfTokenMatches('token-abc', ['token-abc'])).toBe(false);
    expect(csrfTokenMatches('token-abc', undefined)).toBe(false);
  });

  it('never matches when nothing is expected', () => {
    expect(csrfTokenMatches(null, '')).toBe(false);
    expect(csrfTokenMatches('', '')).toBe(false);
    expect(csrfTokenMatches(undefined, 'x')).toBe(false);
  });

  it('refuses posts from another origin but not from an unknown (absent or null) one', () => {
    expect(originAllowed('https://app.example.com', 'https://app.example.com')).toBe(true);
    expect(originAllowed('https://evil.example.com', 'https://app.example.com')).toBe(false);
    expect(originAllowed('http://app.example.com', 'https://app.example.com')).toBe(false);
    expect(originAllowed(undefined, 'https://app.example.com')).toBe(true);
    expect(originAllowed('null', 'https://app.example.com')).toBe(true);
  });
});
