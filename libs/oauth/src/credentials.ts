import { createHash } from 'node:crypto';
import { generateSecret, hashSecret, safeEqual } from '@platform/secrets';

export const CLIENT_SECRET_PREFIX = 'cal_secret_';
export const REFRESH_TOKEN_PREFIX = 'cal_rt_';
export const CODE_PREFIX = 'cal_code_';
/** RFC 6749 4.1.2: "A maximum authorization code lifetime of 10 minutes is RECOMMENDED." */
export const MAX_CODE_TTL_SECONDS = 600;

/**
 * Machine secrets (client secrets, codes, refresh tokens) are long random strings, so a keyed fast hash
 * (HMAC-SHA256 with the deployment's pepper) protects them at rest: no salt or memory-hard hash is needed,
 * and a token request costs microseconds, not the 20+ ms of a password hash. Each kind has its own domain
 * so a hash of one can never be presented as another.
 */
export function createOAuthCredentials(pepper: string) {
  if (pepper.length < 32) throw new Error('the OAuth hashing pepper must be at least 32 characters');
  const hash = (kind: string, value: string) => hashSecret(`${kind}:${value}`, pepper);
  return {
    newClientSecret: () => generateSecret(CLIENT_SECRET_PREFIX, 48),
    newCode: () => generateSecret(CODE_PREFIX, 40),
    newRefreshToken: () => generateSecret(REFRESH_TOKEN_PREFIX, 48),
    hashClientSecret: (secret: string) => hash('client_secret', secret),
    hashCode: (code: string) => hash('code', code),
    hashRefreshToken: (token: string) => hash('refresh_token', token),
  };
}

export type OAuthCredentials = ReturnType<typeof createOAuthCredentials>;

/** Constant-time check of a presented secret's hash against every active secret (all are compared). */
export function matchesAnySecret(presentedHash: string, stored: readonly { hash: string }[]): boolean {
  let match = false;
  for (const s of stored) match = safeEqual(presentedHash, s.hash) || match;
  return match;
}

/** A stable id derived from a value (a grant id from its code hash), so replays land on the same record. */
export function derivedId(prefix: string, from: string): string {
  return `${prefix}_${createHash('sha256').update(from).digest('base64url').slice(0, 26)}`;
}
