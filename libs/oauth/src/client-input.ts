import { InputError, type FieldIssue } from '@platform/errors';
import { MAX_REDIRECT_URIS, type ReviewedFields } from './client-review.js';
import { isScope, type Scope } from './scopes.js';

/** What a developer enters for a client: exactly the fields that review looks at. */
export type ClientInput = ReviewedFields;

export const CLIENT_LIMITS = {
  name: 100,
  purpose: 1000,
  url: 2048,
  redirectUris: MAX_REDIRECT_URIS,
} as const;

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

/**
 * A redirect URI is where authorization codes go, so it is held to RFC 9700: absolute, no fragment, no
 * credentials, https (http only for loopback development hosts) or a private-use scheme of a native app
 * (`com.example.app:/callback`). Matching at authorization is exact, so nothing is normalised here.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0 || uri.length > CLIENT_LIMITS.url) return `must be 1 to ${CLIENT_LIMITS.url} characters`;
  if (/\s/.test(uri)) return 'must not contain spaces';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:')
    return isLoopback(url.hostname) ? null : 'must use https (http is allowed for localhost only)';
  if (/^(javascript|data|vbscript|file|blob):$/.test(url.protocol)) return 'uses a scheme that is not allowed';
  // Private-use schemes of native apps must contain a dot (reverse domain name, RFC 8252 7.1).
  return url.protocol.includes('.') ? null : 'must use https, http for localhost, or a reverse-domain app scheme';
}

function webUrlProblem(value: string): string | null {
  if (value.length > CLIENT_LIMITS.url) return `must be at most ${CLIENT_LIMITS.url} characters`;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url.hostname))
      ? null
      : 'must be an https URL';
  } catch {
    return 'must be an absolute URL';
  }
}

/** Validates a client registration or edit; throws one InputError listing every problem (for the form). */
export function validateClientInput(input: ClientInput): ClientInput & { scopes: Scope[] } {
  const issues: FieldIssue[] = [];
  const name = input.name.trim();
  const purpose = input.purpose.trim();
  if (name.length === 0 || name.length > CLIENT_LIMITS.name) {
    issues.push({ field: 'name', code: 'invalid', message: `Name must be 1 to ${CLIENT_LIMITS.name} characters.` });
  }
  if (purpose.length === 0 || purpose.length > CLIENT_LIMITS.purpose) {
    issues.push({
      field: 'purpose',
      code: 'invalid',
      message: `Purpose must be 1 to ${CLIENT_LIMITS.purpose} characters.`,
    });
  }
  for (const [field, value] of [
    ['logo_url', input.logoUrl],
    ['website_url', input.websiteUrl],
  ] as const) {
    const problem = value ? webUrlProblem(value) : null;
    if (problem)
      issues.push({
        field,
        code: 'invalid_url',
        message: `${field === 'logo_url' ? 'Logo URL' : 'Website URL'} ${problem}.`,
      });
  }
  const redirectUris = [...new Set(input.redirectUris.map((u) => u.trim()).filter((u) => u.length > 0))];
  if (redirectUris.length === 0) {
    issues.push({ field: 'redirect_uris', code: 'required', message: 'At least one redirect URI is required.' });
  }
  if (redirectUris.length > CLIENT_LIMITS.redirectUris) {
    issues.push({
      field: 'redirect_uris',
      code: 'too_many',
      message: `At most ${CLIENT_LIMITS.redirectUris} redirect URIs per client.`,
    });
  }
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem)
      issues.push({
        field: 'redirect_uris',
        code: 'invalid_url',
        message: `Redirect URI ${uri.slice(0, 100)} ${problem}.`,
      });
  }
  const scopes = [...new Set(input.scopes)];
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    issues.push({
      field: 'scopes',
      code: 'invalid_scope',
      message: `Not scopes: ${unknown.slice(0, 5).join(', ').slice(0, 200)}.`,
    });
  }
  if (scopes.length === 0) issues.push({ field: 'scopes', code: 'required', message: 'Select at least one scope.' });
  if (issues.length > 0) throw new InputError('invalid_client', issues[0]!.message, { issues });
  return {
    name,
    purpose,
    logoUrl: input.logoUrl || null,
    websiteUrl: input.websiteUrl || null,
    redirectUris,
    scopes: scopes as Scope[],
  };
}
