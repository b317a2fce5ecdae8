import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { EgressBlockedError, createEgressGuard, parsePublicUrl } from './index.js';

describe('egress guard', () => {
  const guard = createEgressGuard();

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:a00:1',
    '224.0.0.1',
  ])('refuses %s', (address) => {
    expect(guard.isAllowed(address)).toBe(false);
    expect(() => guard.check(address)).toThrow(EgressBlockedError);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111'])('allows public %s', (address) => {
    expect(guard.isAllowed(address)).toBe(true);
  });

  it('lets an allowlist open a private range', () => {
    const open = createEgressGuard({ allow: ['127.0.0.0/8', '::1'] });
    expect(open.isAllowed('127.0.0.5')).toBe(true);
    expect(open.isAllowed('::1')).toBe(true);
    expect(open.isAllowed('10.0.0.1')).toBe(false);
  });

  it('refuses a name that resolves to loopback at lookup time', async () => {
    const error = await new Promise<Error | null>((resolve) => guard.lookup('localhost', {}, (err) => resolve(err)));
    expect(error).toBeInstanceOf(EgressBlockedError);
  });

  it('rejects malformed URLs at the edge with the field named', () => {
    expect(() => parsePublicUrl('ftp://example.com', 'endpoint_url')).toThrow(InputError);
    expect(() => parsePublicUrl('https://user:pw@example.com', 'endpoint_url')).toThrow(/credentials/);
    expect(parsePublicUrl('https://example.com/hook', 'endpoint_url').hostname).toBe('example.com');
  });
});
