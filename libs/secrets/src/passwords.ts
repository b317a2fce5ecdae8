import { scrypt, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

/**
 * Argon2id with OWASP's first recommended configuration (19 MiB, 2 passes, 1 lane): memory-hard, about
 * 20-30 ms per hash here. Parameters live in the PHC string, so they can be raised later and old hashes
 * still verify (`needsRehash` tells when to upgrade one at the next login).
 */
const ARGON2 = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const MAX_PASSWORD_LENGTH = 1024;

export async function hashPassword(password: string): Promise<string> {
  return argon2.hash(password.normalize('NFKC'), ARGON2);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  if (stored.startsWith('$argon2id$')) {
    try {
      return await argon2.verify(stored, password.normalize('NFKC'));
    } catch {
      return false;
    }
  }
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

/** Whether a stored hash uses older parameters or scheme and should be replaced after a successful login. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith('$argon2id$') || argon2.needsRehash(stored, ARGON2);
}

// Hashes written before Argon2id (`scrypt$N$r$p$salt$hash`) keep verifying.
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      Buffer.from(salt, 'base64url'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: 64 * 1024 * 1024 },
      (error, derived) => (error ? reject(error) : resolve(derived)),
    ),
  ).catch(() => Buffer.alloc(0));
  return key.length === expected.length && timingSafeEqual(key, expected);
}
