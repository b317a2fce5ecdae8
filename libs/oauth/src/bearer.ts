import { NotAllowedError, UnauthenticatedError } from '@platform/errors';
import type { FastifyRequest } from '@platform/http';
import type { AccessTokenClaims, AccessTokens } from './access-tokens.js';
import type { GrantRevocations } from './revocations.js';
import { grants, type Scope } from './scopes.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified access token of a `/v2` request (set by the bearer check). */
    oauth?: AccessTokenClaims;
  }
}

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]+) *$/i;

/**
 * The bearer-token check in front of every `/v2` API endpoint: a signed, unexpired access token whose grant
 * is not revoked. In-process and I/O-free (one HMAC, one JSON parse, one Map lookup).
 */
export function createBearerCheck(deps: {
  accessTokens: AccessTokens;
  revocations: Pick<GrantRevocations, 'isRevoked'>;
}) {
  function verify(authorization: string | undefined): AccessTokenClaims {
    if (!authorization)
      throw new UnauthenticatedError('missing_token', 'An access token is required (Authorization: Bearer <token>).');
    const match = BEARER.exec(authorization);
    const claims = match ? deps.accessTokens.verify(match[1]!) : null;
    if (!claims || deps.revocations.isRevoked(claims.gid)) {
      throw new UnauthenticatedError('invalid_token', 'The access token is invalid, expired or revoked.');
    }
    return claims;
  }

  return {
    verify,
    isRevoked: (grantId: string) => deps.revocations.isRevoked(grantId),
    /** Fastify onRequest hook: rejects with 401 or sets `request.oauth`. */
    async authenticate(request: FastifyRequest): Promise<void> {
      request.oauth = verify(request.headers.authorization);
    },
  };
}

export type BearerCheck = ReturnType<typeof createBearerCheck>;

/**
 * Whether a token may call an endpoint that needs `scope`: tokens of legacy clients are not subject to
 * scope enforcement (they are still limited to the authorizing user's resources); ORG_X satisfies TEAM_X.
 */
export function tokenHasScope(claims: AccessTokenClaims, scope: Scope): boolean {
  return claims.legacy || grants(claims.scp, scope);
}

/** Fastify preHandler for a scope-protected route (after the bearer check). */
export function requireScope(scope: Scope) {
  return async (request: FastifyRequest): Promise<void> => {
    const claims = request.oauth;
    if (!claims)
      throw new UnauthenticatedError('missing_token', 'An access token is required (Authorization: Bearer <token>).');
    if (!tokenHasScope(claims, scope)) {
      throw new NotAllowedError(
        'insufficient_scope',
        `The access token lacks the scope ${scope} that this endpoint requires.`,
      );
    }
  };
}
