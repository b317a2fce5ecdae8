import { InputError, UnauthenticatedError } from '@platform/errors';
import { matchesAnySecret } from './credentials.js';
import type { OAuthClientDoc } from './store.js';

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
  if (!client)
    throw new UnauthenticatedError(
      'invalid_client',
      'Client authentication failed: no client exists for this client_id.',
    );
  if (client.kind === 'confidential') {
    if (!secretHash)
      throw new UnauthenticatedError(
        'invalid_client',
        'Client authentication failed: client_secret is required for this client.',
      );
    if (!matchesAnySecret(secretHash, client.secrets)) {
      throw new UnauthenticatedError(
        'invalid_client',
        'Client authentication failed: client_secret does not match client_id.',
      );
    }
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
    throw new InputError(
      'unauthorized_client',
      `This client is ${client.status === 'rejected' ? 'rejected' : 'not approved'} and cannot obtain tokens.`,
    );
  }
  return client;
}
