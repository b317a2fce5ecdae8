import { describe, expect, it } from 'vitest';
import { createSealer, generateId, generateSecret, hashSecret, safeEqual, verifySecret } from './index.js';

describe('secrets', () => {
  it('generates prefixed base62 secrets of the requested length', () => {
    const secret = generateSecret('whsec_', 40);
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
    expect(generateSecret('whsec_')).not.toBe(secret);
  });

  it('generates time-ordered prefixed ids', () => {
    const a = generateId('we', 1_700_000_000_000);
    const b = generateId('we', 1_700_000_000_001);
    expect(a).toMatch(/^we_[0-9A-Z]{26}$/);
    expect(a < b).toBe(true);
  });

  it('verifies a hashed secret only with the right secret and pepper', () => {
    const hash = hashSecret('sk_test_abc', 'pepper-1');
    expect(hash).not.toContain('sk_test_abc');
    expect(verifySecret('sk_test_abc', hash, 'pepper-1')).toBe(true);
    expect(verifySecret('sk_test_abd', hash, 'pepper-1')).toBe(false);
    expect(verifySecret('sk_test_abc', hash, 'pepper-2')).toBe(false);
  });

  it('compares strings of different length as unequal', () => {
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('abc', 'abc')).toBe(true);
  });

  it('seals and opens, and refuses tampered or foreign-key blobs', () => {
    const sealer = createSealer('a-sufficiently-long-key');
    const sealed = sealer.seal('whsec_xyz');
    expect(sealed).not.toContain('whsec_xyz');
    expect(sealer.open(sealed)).toBe('whsec_xyz');
    expect(() => createSealer('another-long-key-123').open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => sealer.open(parts.join('.'))).toThrow();
  });
});

describe('passwords', () => {
  it('hashes with a salt and verifies only the right password', async () => {
    const { hashPassword, verifyPassword } = await import('./index.js');
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('wrong horse', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'not a hash')).toBe(false);
  });

  it('still verifies scrypt hashes written before Argon2id, and asks for a rehash', async () => {
    const { verifyPassword, needsRehash, hashPassword } = await import('./index.js');
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.from('saltsaltsaltsalt');
    const legacy = [
      'scrypt',
      1024,
      8,
      1,
      salt.toString('base64url'),
      scryptSync('correct horse', salt, 32, { N: 1024, r: 8, p: 1 }).toString('base64url'),
    ].join('$');
    expect(await verifyPassword('correct horse', legacy)).toBe(true);
    expect(await verifyPassword('wrong horse', legacy)).toBe(false);
    expect(needsRehash(legacy)).toBe(true);
    expect(needsRehash(await hashPassword('x'))).toBe(false);
  });
});
