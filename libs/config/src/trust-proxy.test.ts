import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './common-env.js';

describe('TRUST_PROXY', () => {
  it('is off, a hop count, a list of proxies, or (discouraged) every hop', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8,127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(parseTrustProxy('true')).toBe(true);
  });
});
