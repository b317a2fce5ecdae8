import { InputError, UnauthenticatedError } from '@platform/errors';
import { matchesAnySecret } from './credentials.js';
import type { OAuthClientDoc } from './store.js';

/**
 * Cal.com's reason codes, which the token endpoint gives as `error_description` beside RFC 6749's `error`: a
 * client can branch on them (re-authorize, fix its credentials) where prose would need parsing.
 */
export const TOKEN_ERROR_REASONS = {
  clientNotFound: 'client_not_found',
  invalidClientCredentials: 'invalid_client_credentials',
  clientNotApproved: 'client_not_approved',
  codeInvalidOrExpired: 'code_invalid_or_expired',
  invalidRefreshToken: 'invalid_refresh_token',
} as const;

/**
 * Client authentication at the token, revocation and introspection endpoints (RFC 6749 2.3). The secret
 * arrives as its keyed hash and is compared in constant time against every active secret (at most two, so
 * rotation needs no downtime). Obtaining tokens, by a code or a refresh, needs an accepted client (as Cal.com
 * checks approval at refresh): a client back in review waits for its review; a rejected client is cut off
 * (its grants are revoked too, so its access tokens stop at once). Revoking and introspecting stay open to it.
 */
export function authenticateClient(
  client: OAuthClientDoc | null,
  secretHash: string | null,
  purpose: 'issue' | 'refresh' | 'revoke' | 'introspect',
): OAuthClientDoc {
  if (!client) throw new UnauthenticatedError('invalid_client', TOKEN_ERROR_REASONS.clientNotFound);
  if (client.kind === 'confidential') {
    if (!secretHash || !matchesAnySecret(secretHash, client.secrets))
      throw new UnauthenticatedError('invalid_client', TOKEN_ERROR_REASONS.invalidClientCredentials);
  } else if (secretHash) {
    throw new UnauthenticatedError(
      'invalid_client',
      'Client authentication failed: public clients use PKCE and send no client_secret.',
    );
  }
  if (
    client.status === 'rejected' ||
    (client.status !== 'accepted' && (purpose === 'issue' || purpose === 'refresh'))
  ) {
    throw new InputError('unauthorized_client', TOKEN_ERROR_REASONS.clientNotApproved);
  }
  return client;
}
