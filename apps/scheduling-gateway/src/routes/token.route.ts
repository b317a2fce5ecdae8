import { MessageTypeNames } from '@platform/contracts';
import { InputError, isPlatformError } from '@platform/errors';
import { withHeaders, type HttpApp } from '@platform/http';
import { ACCESS_TOKEN_TTL_SECONDS, pkceDigest } from '@platform/oauth';
import type { GatewayDeps } from '../deps.js';
import { NO_STORE, TokenResponse, oauthErrorResponses } from './oauth-schemas.js';
import { readClientCredentials, readParams, required, tokenRequestBody, type TokenParams } from './token-request.js';

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

/** Failures that count towards brute-force protection: guessing secrets, codes or refresh tokens. */
function isGuess(error: unknown): boolean {
  return isPlatformError(error) && (error.code === 'invalid_client' || error.code === 'invalid_grant');
}

export function tokenRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/v2/auth/oauth2/token',
    {
      schema: {
        summary: 'Exchange an authorization code or a refresh token for tokens',
        description:
          'RFC 6749 token endpoint. JSON or application/x-www-form-urlencoded. Confidential clients authenticate with client_secret (body or HTTP Basic); public clients with PKCE code_verifier.',
        tags: ['oauth'],
        body: tokenRequestBody(
          [
            'grant_type',
            'code',
            'redirect_uri',
            'code_verifier',
            'refresh_token',
            'scope',
            'client_id',
            'client_secret',
          ],
          'authorization_code: code, redirect_uri and code_verifier (PKCE); refresh_token: refresh_token.',
        ),
        response: { 200: withHeaders(TokenResponse, NO_STORE), ...oauthErrorResponses },
      },
    },
    async (request, reply) => {
      const params = readParams(request);
      const ip = request.ip;
      // The spec's order: a missing client_id, then an unsupported grant type, then everything else.
      const credentials = readClientCredentials(request, params);
      const grantType = required(params, 'grant_type');
      if (!GRANT_TYPES.has(grantType)) {
        throw new InputError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
      }
      await deps.failures.check(ip, credentials.clientId);
      const secretHash =
        credentials.clientSecret === null ? null : deps.credentials.hashClientSecret(credentials.clientSecret);
      const refreshToken = deps.credentials.newRefreshToken();
      try {
        const newRefreshTokenHash = deps.credentials.hashRefreshToken(refreshToken);
        const granted =
          grantType === 'authorization_code'
            ? await codeExchange(params, credentials.clientId, secretHash, newRefreshTokenHash, deps)
            : await refresh(params, credentials.clientId, secretHash, newRefreshTokenHash, deps);
        const access = deps.accessTokens.issue({
          sub: granted.user_id,
          cid: granted.client_id,
          gid: granted.grant_id,
          scp: granted.scopes,
          legacy: granted.legacy,
        });
        return reply
          .code(200)
          .header('cache-control', 'no-store')
          .header('pragma', 'no-cache')
          .send({
            access_token: access.token,
            token_type: 'bearer',
            refresh_token: refreshToken,
            expires_in: ACCESS_TOKEN_TTL_SECONDS,
            scope: granted.scopes.join(' '),
          });
      } catch (error) {
        if (isGuess(error)) await deps.failures.recordFailure(ip, credentials.clientId);
        throw error;
      }
    },
  );
}

function codeExchange(
  params: TokenParams,
  clientId: string,
  secretHash: string | null,
  refreshTokenHash: string,
  deps: GatewayDeps,
) {
  const code = required(params, 'code');
  const redirectUri = required(params, 'redirect_uri');
  let verifierDigest: string | null = null;
  if (params.code_verifier !== undefined) {
    verifierDigest = pkceDigest(params.code_verifier);
    if (!verifierDigest)
      throw new InputError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~.');
  }
  const codeHash = deps.credentials.hashCode(code);
  // Keyed by the code, not the client: one busy client's token requests spread over partitions (the code and
  // refresh-token claims are compare-and-set, so they need no ordering).
  return deps.commands.send(MessageTypeNames.ExchangeAuthorizationCode, codeHash, {
    client_id: clientId,
    client_secret_hash: secretHash,
    code_hash: codeHash,
    redirect_uri: redirectUri,
    code_verifier_digest: verifierDigest,
    refresh_token_hash: refreshTokenHash,
  });
}

function refresh(
  params: TokenParams,
  clientId: string,
  secretHash: string | null,
  newRefreshTokenHash: string,
  deps: GatewayDeps,
) {
  const tokenHash = deps.credentials.hashRefreshToken(required(params, 'refresh_token'));
  return deps.commands.send(MessageTypeNames.RefreshAccessToken, tokenHash, {
    client_id: clientId,
    client_secret_hash: secretHash,
    refresh_token_hash: tokenHash,
    new_refresh_token_hash: newRefreshTokenHash,
  });
}
