import { isValidCodeChallenge } from './pkce.js';
import { isLegacyScopeSet, isScope, splitScopeList, type Scope } from './scopes.js';
import { scopesBeyondUser, NO_REACH, type UserReach } from './user-reach.js';
import type { ClientStatus } from './client-review.js';

export interface AuthorizeClient {
  id: string;
  status: ClientStatus;
  kind: 'confidential' | 'public';
  redirectUris: string[];
  scopes: string[];
}

export interface AuthorizeParams {
  client_id?: string | undefined;
  redirect_uri?: string | undefined;
  state?: string | undefined;
  scope?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
  response_type?: string | undefined;
}

/**
 * Outcomes of an authorization request, in the spec's order. Errors about the client or the redirect URI are
 * shown on the page (never redirected: that would be an open redirect); errors about the request itself, and
 * a user who lacks permission to grant it, go back to the now-trusted redirect URI with `error` and `state`.
 */
export type AuthorizeDecision =
  | { kind: 'show_error'; message: string }
  | {
      kind: 'redirect_error';
      redirectUri: string;
      error: 'invalid_scope' | 'invalid_request' | 'access_denied' | 'unsupported_response_type';
      description: string;
      state?: string;
    }
  | {
      kind: 'consent';
      client: AuthorizeClient;
      redirectUri: string;
      scopes: Scope[];
      legacy: boolean;
      state?: string;
      codeChallenge?: string;
    };

export const SCOPE_REQUIRED_MESSAGE = 'scope parameter is required for this OAuth client';
export const MAX_PARAM_LENGTH = 2048;

/** `reach` is what the logged-in user can give access to beyond their own account (none unless told). */
export function decideAuthorize(
  client: AuthorizeClient | null,
  params: AuthorizeParams,
  reach: UserReach = NO_REACH,
): AuthorizeDecision {
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && value.length > MAX_PARAM_LENGTH) {
      return { kind: 'show_error', message: `The ${name} parameter is too long.` };
    }
  }
  if (!params.client_id || !client)
    return { kind: 'show_error', message: 'No OAuth client exists for this client_id.' };
  if (client.status !== 'accepted')
    return { kind: 'show_error', message: 'This OAuth client has not been approved yet.' };
  // Exact string match, no normalisation: the redirect URI is where codes go.
  if (!params.redirect_uri || !client.redirectUris.includes(params.redirect_uri)) {
    return {
      kind: 'show_error',
      message: 'The redirect_uri does not match any redirect URI registered for this client.',
    };
  }
  const redirectUri = params.redirect_uri;
  const withState = <T extends object>(d: T) => (params.state === undefined ? d : { ...d, state: params.state });
  // The authorization code flow only (RFC 6749 4.1); an implicit-flow request is refused, not answered with a code.
  if (params.response_type !== undefined && params.response_type !== 'code') {
    return withState({
      kind: 'redirect_error' as const,
      redirectUri,
      error: 'unsupported_response_type' as const,
      description: 'Only response_type=code is supported (the authorization code flow).',
    });
  }
  const legacy = isLegacyScopeSet(client.scopes);
  const given = params.scope === undefined ? [] : splitScopeList(params.scope);
  // A legacy client's authorization URLs predate scopes (the spec's migration adds `scope` to them first): without
  // one, it asks for what it was registered with, and its tokens reach what its user reaches, as before.
  if (given.length === 0 && !legacy) return { kind: 'show_error', message: SCOPE_REQUIRED_MESSAGE };
  const requested = given.length > 0 ? given : [...client.scopes];
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    return withState({
      kind: 'redirect_error' as const,
      redirectUri,
      error: 'invalid_scope' as const,
      description: `The requested scope is not a recognized scope: ${unknown.join(', ')}`,
    });
  }
  const beyond = requested.filter((s) => !client.scopes.includes(s));
  if (!legacy && beyond.length > 0) {
    return withState({
      kind: 'redirect_error' as const,
      redirectUri,
      error: 'invalid_request' as const,
      description: `The requested scope exceeds the client's registered scopes: ${beyond.join(', ')}`,
    });
  }
  if (client.kind === 'public' || params.code_challenge !== undefined) {
    if (!params.code_challenge) {
      return withState({
        kind: 'redirect_error' as const,
        redirectUri,
        error: 'invalid_request' as const,
        description: 'code_challenge is required for public clients',
      });
    }
    // RFC 7636 4.3: an absent method means `plain`, which is refused like an explicit one.
    if (params.code_challenge_method !== 'S256') {
      return withState({
        kind: 'redirect_error' as const,
        redirectUri,
        error: 'invalid_request' as const,
        description: 'code_challenge_method must be S256',
      });
    }
    if (!isValidCodeChallenge(params.code_challenge)) {
      return withState({
        kind: 'redirect_error' as const,
        redirectUri,
        error: 'invalid_request' as const,
        description: 'code_challenge must be a base64url SHA-256 digest',
      });
    }
  }
  // The spec's last row: a user who lacks permission is redirected with an error, like one who denies.
  const ungrantable = scopesBeyondUser(requested as Scope[], reach);
  if (ungrantable.length > 0) {
    return withState({
      kind: 'redirect_error' as const,
      redirectUri,
      error: 'access_denied' as const,
      description: `The user lacks permission to grant ${ungrantable.join(', ')}: they belong to no team or organization these scopes reach.`,
    });
  }
  const decision: AuthorizeDecision = { kind: 'consent', client, redirectUri, scopes: requested as Scope[], legacy };
  if (params.state !== undefined) decision.state = params.state;
  if (params.code_challenge !== undefined) decision.codeChallenge = params.code_challenge;
  return decision;
}

/** The redirect for an error, `state` echoed (RFC 6749 4.1.2.1). */
export function errorRedirect(redirectUri: string, error: string, description: string, state?: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state !== undefined) url.searchParams.set('state', state);
  return url.toString();
}
