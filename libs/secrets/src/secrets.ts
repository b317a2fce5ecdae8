import { createHmac, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased base62 from CSPRNG bytes (rejection sampling). */
function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A high-entropy secret such as `sk_live_…` or `whsec_…`; 40 base62 chars is ~238 bits. */
export function generateSecret(prefix: string, length = 40): string {
  return `${prefix}${base62(length)}`;
}

/**
 * Time-ordered, prefixed identifier like WorkOS's (`we_01H…`): a 48-bit millisecond timestamp
 * followed by 80 random bits, in Crockford base32 (ULID layout), so ids sort by creation time.
 */
export function generateId(prefix: string, now = Date.now()): string {
  const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = crockford[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = pooledRandomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += crockford[bytes[i]! % 32];
  return `${prefix}_${time}${rand}`;
}

/**
 * CSPRNG bytes drawn from a pool filled 4 KiB at a time, as node's randomUUID does: one call into the
 * system's generator for 256 ids instead of one per id (issue 41: that call was 2 % of a gateway's CPU). The
 * view is only valid until the next call.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function pooledRandomBytes(length: number): Buffer {
  if (poolOffset + length > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + length);
  poolOffset += length;
  return bytes;
}

/**
 * Machine secrets are long random strings, so a keyed fast hash (HMAC-SHA256 with a server-side pepper)
 * is as strong as a slow hash for them and keeps authentication off the CPU's critical path.
 */
export function hashSecret(secret: string, pepper: string): string {
  return createHmac('sha256', pepper).update(secret).digest('hex');
}

export function verifySecret(secret: string, expectedHash: string, pepper: string): boolean {
  return safeEqual(hashSecret(secret, pepper), expectedHash);
}

/** Constant-time string comparison; different lengths compare false without an early exit on content. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
