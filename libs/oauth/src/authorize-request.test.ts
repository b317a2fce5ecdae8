import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SCOPE_REQUIRED_MESSAGE, decideAuthorize, errorRedirect, type AuthorizeClient } from './authorize-request.js';
import { pkceDigest } from './pkce.js';

const confidential: AuthorizeClient = {
  id: 'client_1',
  status: 'accepted',
  kind: 'confidential',
  redirectUris: ['https://app.example.com/cb'],
  scopes: ['BOOKING_READ', 'BOOKING_WRITE'],
};
const base = { client_id: 'client_1', redirect_uri: 'https://app.example.com/cb', state: 'xyz', scope: 'BOOKING_READ' };
const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const challenge = createHash('sha256').update(verifier).digest('base64url');

describe('authorization request', () => {
  it('shows unknown clients, unapproved clients and mismatched redirect URIs on the page', () => {
    expect(decideAuthorize(null, base)).toMatchObject({
      kind: 'show_error',
      message: 'No OAuth client exists for this client_id.',
    });
    expect(decideAuthorize({ ...confidential, status: 'pending' }, base)).toMatchObject({ kind: 'show_error' });
    expect(decideAuthorize({ ...confidential, status: 'rejected' }, base)).toMatchObject({ kind: 'show_error' });
    for (const redirect_uri of [
      'https://app.example.com/cb/',
      'https://app.example.com/cb?x=1',
      'https://APP.example.com/cb',
      'https://evil.example/cb',
    ]) {
      expect(decideAuthorize(confidential, { ...base, redirect_uri })).toMatchObject({ kind: 'show_error' });
    }
  });

  it('lets a legacy client authorize without scope (its URLs predate scopes), asking for what it has', () => {
    const { scope: _scope, ...noScope } = base;
    for (const scopes of [[], ['READ_BOOKING'], ['READ_BOOKING', 'READ_PROFILE']]) {
      expect(decideAuthorize({ ...confidential, scopes }, noScope)).toMatchObject({
        kind: 'consent',
        legacy: true,
        scopes,
        state: 'xyz',
      });
    }
  });

  it('refuses a response_type other than code with unsupported_response_type (no consent, no code)', () => {
    expect(decideAuthorize(confidential, { ...base, response_type: 'token' })).toEqual({
      kind: 'redirect_error',
      redirectUri: 'https://app.example.com/cb',
      error: 'unsupported_response_type',
      description: expect.stringContaining('response_type=code'),
      state: 'xyz',
    });
    expect(decideAuthorize(confidential, { ...base, response_type: 'code' })).toMatchObject({ kind: 'consent' });
  });

  it('shows the spec message when scope is missing', () => {
    const { scope: _scope, ...noScope } = base;
    expect(decideAuthorize(confidential, noScope)).toEqual({ kind: 'show_error', message: SCOPE_REQUIRED_MESSAGE });
    expect(decideAuthorize(confidential, { ...base, scope: ' , ' })).toEqual({
      kind: 'show_error',
      message: SCOPE_REQUIRED_MESSAGE,
    });
  });

  it('redirects invalid_scope for values that are not scopes, for legacy clients too', () => {
    for (const client of [confidential, { ...confidential, scopes: [] }]) {
      expect(decideAuthorize(client, { ...base, scope: 'BOOKING_READ,NOPE' })).toMatchObject({
        kind: 'redirect_error',
        error: 'invalid_scope',
        state: 'xyz',
        description: expect.stringContaining('not a recognized scope'),
      });
    }
  });

  it('redirects invalid_request for scopes beyond the client, except for legacy clients', () => {
    expect(decideAuthorize(confidential, { ...base, scope: 'BOOKING_READ SCHEDULE_READ' })).toMatchObject({
      kind: 'redirect_error',
      error: 'invalid_request',
      description: expect.stringContaining("exceeds the client's registered scopes"),
    });
    const legacy = { ...confidential, scopes: ['READ_BOOKING'] };
    expect(decideAuthorize(legacy, { ...base, scope: 'BOOKING_READ SCHEDULE_READ' })).toMatchObject({
      kind: 'consent',
      legacy: true,
    });
  });

  it('requires an S256 code_challenge from public clients and refuses plain', () => {
    const pub = { ...confidential, kind: 'public' as const };
    expect(decideAuthorize(pub, base)).toMatchObject({ kind: 'redirect_error', error: 'invalid_request' });
    expect(decideAuthorize(pub, { ...base, code_challenge: challenge, code_challenge_method: 'plain' })).toMatchObject({
      kind: 'redirect_error',
      description: 'code_challenge_method must be S256',
    });
    expect(decideAuthorize(pub, { ...base, code_challenge: challenge, code_challenge_method: 'S256' })).toMatchObject({
      kind: 'consent',
      codeChallenge: challenge,
    });
    expect(pkceDigest(verifier)).toBe(challenge);
    expect(pkceDigest('too-short')).toBeNull();
  });

  it('reads an absent code_challenge_method as plain (RFC 7636 4.3) and refuses it the same way', () => {
    const plain = {
      kind: 'redirect_error',
      error: 'invalid_request',
      description: 'code_challenge_method must be S256',
      state: 'xyz',
    };
    const pub = { ...confidential, kind: 'public' as const };
    expect(decideAuthorize(pub, { ...base, code_challenge: challenge })).toEqual({
      ...plain,
      redirectUri: base.redirect_uri,
    });
    expect(decideAuthorize(confidential, { ...base, code_challenge: challenge })).toEqual({
      ...plain,
      redirectUri: base.redirect_uri,
    });
  });

  it('redirects access_denied with state when the user lacks permission for TEAM_ or ORG_ scopes', () => {
    const teams = { ...confidential, scopes: ['BOOKING_READ', 'TEAM_PROFILE_READ', 'ORG_BOOKING_READ'] };
    const denied = {
      kind: 'redirect_error',
      error: 'access_denied',
      state: 'xyz',
      description: expect.stringContaining('lacks permission'),
    };
    expect(decideAuthorize(teams, { ...base, scope: 'BOOKING_READ TEAM_PROFILE_READ' })).toMatchObject(denied);
    expect(
      decideAuthorize(teams, { ...base, scope: 'TEAM_PROFILE_READ' }, { teams: true, organizations: false }),
    ).toMatchObject({ kind: 'consent' });
    expect(
      decideAuthorize(teams, { ...base, scope: 'TEAM_PROFILE_READ' }, { teams: false, organizations: true }),
    ).toMatchObject({ kind: 'consent' });
    expect(
      decideAuthorize(teams, { ...base, scope: 'ORG_BOOKING_READ' }, { teams: true, organizations: false }),
    ).toMatchObject({
      ...denied,
      description: expect.stringContaining('ORG_BOOKING_READ'),
    });
    // Legacy clients skip the client's scope check, not the user's permission.
    expect(decideAuthorize({ ...confidential, scopes: [] }, { ...base, scope: 'TEAM_PROFILE_READ' })).toMatchObject(
      denied,
    );
    // User-level scopes need no membership; request errors come before the permission check.
    expect(decideAuthorize(confidential, base)).toMatchObject({ kind: 'consent' });
    expect(decideAuthorize(teams, { ...base, scope: 'TEAM_PROFILE_READ NOPE' })).toMatchObject({
      error: 'invalid_scope',
    });
  });

  it('accepts spaces and commas and echoes state on error redirects', () => {
    expect(decideAuthorize(confidential, { ...base, scope: 'BOOKING_READ,BOOKING_WRITE' })).toMatchObject({
      kind: 'consent',
      scopes: ['BOOKING_READ', 'BOOKING_WRITE'],
    });
    const url = new URL(
      errorRedirect('https://app.example.com/cb?keep=1', 'access_denied', 'The user denied access', 'xyz'),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      keep: '1',
      error: 'access_denied',
      error_description: 'The user denied access',
      state: 'xyz',
    });
  });

  it('refuses oversized parameters on the page', () => {
    expect(decideAuthorize(confidential, { ...base, state: 'x'.repeat(5000) })).toMatchObject({ kind: 'show_error' });
  });
});
