import type { AuthorizeParams } from '@platform/oauth';
import type { Fields } from './form.js';

export const AUTHORIZE_PARAM_NAMES = [
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'response_type',
] as const;

/**
 * The authorization request's parameters from a query string or the consent form. A repeated parameter makes
 * the request ambiguous (RFC 6749 3.1), so it is an error shown on the page, never guessed at.
 */
export function readAuthorizeParams(fields: Fields): { params: AuthorizeParams } | { error: string } {
  const params: AuthorizeParams = {};
  for (const name of AUTHORIZE_PARAM_NAMES) {
    const value = fields[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return { error: `The ${name} parameter must not be repeated.` };
    params[name] = value;
  }
  return { params };
}

/** The success redirect: the redirect URI keeps its own query; `code`, `state` and `iss` are added. */
export function codeRedirect(redirectUri: string, code: string, state: string | undefined, issuer: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  if (state !== undefined) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuer);
  return url.toString();
}

/** RFC 9207: error responses carry the issuer too, so a client can tell which server answered. */
export function withIssuer(redirect: string, issuer: string): string {
  const url = new URL(redirect);
  url.searchParams.set('iss', issuer);
  return url.toString();
}
