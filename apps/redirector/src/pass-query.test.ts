import { describe, expect, it } from 'vitest';
import { MAX_PASSED_QUERY, passQuery } from './pass-query.js';

describe('the short URL query passed on to the destination', () => {
  it("is appended to the destination's own query, before its fragment", () => {
    expect(passQuery('https://example.com/a', 'utm_source=x', null)).toEqual({
      location: 'https://example.com/a?utm_source=x',
      passed: 'utm_source=x',
    });
    expect(passQuery('https://example.com/a?b=1#top', 'c=2&d=%20', null).location).toBe(
      'https://example.com/a?b=1&c=2&d=%20#top',
    );
    expect(passQuery('https://example.com/a?', 'c=2', null).location).toBe('https://example.com/a?c=2');
  });

  it('leaves out the QR marker of a scan and empty pairs; nothing left is no change', () => {
    expect(passQuery('https://example.com/a', 'qr=Q1&&x=1', 'qr=Q1')).toEqual({
      location: 'https://example.com/a?x=1',
      passed: 'x=1',
    });
    expect(passQuery('https://example.com/a#f', 'qr=Q1', 'qr=Q1')).toEqual({
      location: 'https://example.com/a#f',
      passed: '',
    });
  });

  it('encodes what a header cannot carry and passes nothing over the limit', () => {
    expect(passQuery('https://example.com/', 'q=a b\u00e9#x', null).passed).toBe('q=a%20b%C3%A9%23x');
    expect(passQuery('https://example.com/', `q=${'x'.repeat(MAX_PASSED_QUERY)}`, null)).toEqual({
      location: 'https://example.com/',
      passed: '',
    });
  });
});
