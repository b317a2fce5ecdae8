import { describe, expect, it } from 'vitest';
import { authenticateClient } from './client-auth.js';
import { createOAuthCredentials, matchesAnySecret } from './credentials.js';
import type { OAuthClientDoc } from './store.js';

const credentials = createOAuthCredentials('p'.repeat(32));

function client(overrides: Partial<OAuthClientDoc> = {}): OAuthClientDoc {
  return {
    _id: 'cl_1',
    owner_user_id: 'u',
    owner_email: 'u@example.com',
    name: 'n',
    logo_url: null,
    website_url: null,
    purpose: 'p',
    redirect_uris: [],
    scopes: ['BOOKING_READ'],
    kind: 'confidential',
    status: 'accepted',
    secrets: [],
    reviewed_by: null,
    reviewed_at: null,
    review_reason: null,
    version: 1,
    created_at: new Date(),
    updated_at: new Date(),
    outbox: [],
    has_outbox: false,
    ...overrides,
  };
}

describe('machine credentials', () => {
  it('are long, prefixed and hashed with a keyed hash per kind (one kind never verifies as another)', () => {
    const secret = credentials.newClientSecret();
    expect(secret).toMatch(/^cal_secret_[A-Za-z0-9]{48}$/);
    expect(credentials.newRefreshToken()).toMatch(/^cal_rt_[A-Za-z0-9]{48}$/);
    expect(credentials.hashClientSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
    expect(credentials.hashClientSecret(secret)).not.toBe(credentials.hashRefreshToken(secret));
    expect(createOAuthCredentials('q'.repeat(32)).hashClientSecret(secret)).not.toBe(
      credentials.hashClientSecret(secret),
    );
    expect(() => createOAuthCredentials('short')).toThrow();
  });

  it('match any of the active secrets', () => {
    const [a, b] = [credentials.newClientSecret(), credentials.newClientSecret()];
    const stored = [{ hash: credentials.hashClientSecret(a) }, { hash: credentials.hashClientSecret(b) }];
    expect(matchesAnySecret(credentials.hashClientSecret(a), stored)).toBe(true);
    expect(matchesAnySecret(credentials.hashClientSecret(b), stored)).toBe(true);
    expect(matchesAnySecret(credentials.hashClientSecret('other'), stored)).toBe(false);
    expect(matchesAnySecret(credentials.hashClientSecret(a), [])).toBe(false);
  });
});

describe('client authentication', () => {
  const secret = credentials.newClientSecret();
  const confidential = client({
    secrets: [{ id: 's', hash: credentials.hashClientSecret(secret), hint: 'x', created_at: new Date() }],
  });

  it('refuses unknown clients, missing and wrong secrets with invalid_client', () => {
    expect(() => authenticateClient(null, null, 'issue')).toThrow(
      expect.objectContaining({ code: 'invalid_client', kind: 'unauthenticated' }),
    );
    expect(() => authenticateClient(confidential, null, 'issue')).toThrow(
      expect.objectContaining({ code: 'invalid_client' }),
    );
    expect(() => authenticateClient(confidential, credentials.hashClientSecret('x'), 'issue')).toThrow(
      expect.objectContaining({ code: 'invalid_client' }),
    );
    expect(authenticateClient(confidential, credentials.hashClientSecret(secret), 'issue')).toBe(confidential);
  });

  it('lets public clients in without a secret, and refuses one that sends a secret', () => {
    const pub = client({ kind: 'public' });
    expect(authenticateClient(pub, null, 'issue')).toBe(pub);
    expect(() => authenticateClient(pub, credentials.hashClientSecret('x'), 'issue')).toThrow(
      expect.objectContaining({ code: 'invalid_client' }),
    );
  });

  it('issues and refreshes only for accepted clients (a client in re-review waits); revoking stays open', () => {
    const pending = client({ kind: 'public', status: 'pending' });
    for (const purpose of ['issue', 'refresh'] as const)
      expect(() => authenticateClient(pending, null, purpose)).toThrow(
        expect.objectContaining({ code: 'unauthorized_client' }),
      );
    expect(authenticateClient(pending, null, 'revoke')).toBe(pending);
    expect(() => authenticateClient(client({ kind: 'public', status: 'rejected' }), null, 'refresh')).toThrow(
      expect.objectContaining({ code: 'unauthorized_client' }),
    );
  });
});
