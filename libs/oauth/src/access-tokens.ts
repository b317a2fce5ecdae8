import { createHmac, timingSafeEqual } from 'node:crypto';

export const ACCESS_TOKEN_TTL_SECONDS = 1800;
const PREFIX = 'cal_at_';

export interface AccessTokenClaims {
  /** The authorizing user. */
  sub: string;
  /** The OAuth client. */
  cid: string;
  /** The grant (authorization) it belongs to: revoking the grant revokes its tokens. */
  gid: string;
  scp: string[];
  /** Issued before the client had scopes: not subject to scope enforcement. */
  legacy: boolean;
  /** Expiry, epoch seconds. */
  exp: number;
}

/**
 * Self-contained access tokens: `cal_at_<base64url(JSON claims)>.<base64url(HMAC-SHA256)>`. Verifying is one
 * HMAC and one JSON parse (microseconds), so every API request can check its bearer token in process; a
 * refresh token is a different, opaque secret and can never pass as one of these.
 */
export function createAccessTokens(options: { keys: string[]; now?: () => number }) {
  if (options.keys.length === 0 || options.keys.some((k) => k.length < 32)) {
    throw new Error('access token keys must be at least 32 characters');
  }
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  // The first key signs; every key verifies (so signing keys can be rotated without logging anyone out).
  const [signing] = options.keys;

  const mac = (key: string, body: string) => createHmac('sha256', key).update(body).digest();

  return {
    issue(
      claims: Omit<AccessTokenClaims, 'exp'>,
      ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
    ): { token: string; expiresIn: number } {
      const body = Buffer.from(JSON.stringify({ ...claims, exp: now() + ttlSeconds })).toString('base64url');
      return { token: `${PREFIX}${body}.${mac(signing!, body).toString('base64url')}`, expiresIn: ttlSeconds };
    },

    /** The claims of a valid, unexpired token, or null (tampered, expired, malformed, or not an access token). */
    verify(token: string): AccessTokenClaims | null {
      if (token.length > 4096 || !token.startsWith(PREFIX)) return null;
      const dot = token.lastIndexOf('.');
      if (dot <= PREFIX.length) return null;
      const body = token.slice(PREFIX.length, dot);
      const signature = Buffer.from(token.slice(dot + 1), 'base64url');
      if (signature.length !== 32) return null;
      if (!options.keys.some((key) => timingSafeEqual(mac(key, body), signature))) return null;
      let claims: AccessTokenClaims;
      try {
        claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as AccessTokenClaims;
      } catch {
        return null;
      }
      if (typeof claims.exp !== 'number' || claims.exp <= now() || !Array.isArray(claims.scp)) return null;
      return claims;
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
