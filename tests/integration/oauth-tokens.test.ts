import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchedulingUserDoc } from '@platform/identity';
import { MAX_CODE_TTL_SECONDS } from '@platform/oauth';
import { waitFor } from '@platform/testing';
import { messageText, waitForMail } from '../support/mailbox.js';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack.js';

let stack: OAuthStack;
let developer: SchedulingUserDoc;
let admin: SchedulingUserDoc;
let user: SchedulingUserDoc;

const REDIRECT = 'https://app.example.com/callback';

interface Client {
  id: string;
  secret?: string;
  secretIds: string[];
}

async function registerClient(
  options: { kind?: 'confidential' | 'public'; scopes?: string[]; accept?: boolean } = {},
): Promise<Client> {
  const id = `cl_${randomBytes(8).toString('hex')}`;
  await stack.send('CreateClient', {
    client_id: id,
    owner_user_id: developer._id,
    owner_email: developer.email,
    name: 'Booking Sync',
    logo_url: null,
    website_url: 'https://app.example.com',
    purpose: 'Syncs bookings to our CRM.',
    redirect_uris: [REDIRECT, 'http://localhost:8080/cb'],
    scopes: options.scopes ?? ['BOOKING_READ', 'BOOKING_WRITE', 'TEAM_PROFILE_READ'],
    kind: options.kind ?? 'confidential',
  });
  const client: Client = { id, secretIds: [] };
  if ((options.kind ?? 'confidential') === 'confidential') client.secret = await generateSecret(client);
  if (options.accept ?? true) await review(id, 'accepted');
  return client;
}

async function generateSecret(client: Client): Promise<string> {
  const secret = stack.credentials.newClientSecret();
  const secretId = `sec_${randomBytes(6).toString('hex')}`;
  await stack.send('GenerateClientSecret', {
    client_id: client.id,
    owner_user_id: developer._id,
    secret_id: secretId,
    secret_hash: stack.credentials.hashClientSecret(secret),
    hint: secret.slice(-4),
  });
  client.secretIds.push(secretId);
  return secret;
}

function review(clientId: string, decision: 'accepted' | 'rejected', reason: string | null = null) {
  return stack.send('ReviewClient', { client_id: clientId, reviewer_user_id: admin._id, decision, reason });
}

/** What the consent page does on "Allow": a code whose hash the worker stores. */
async function authorize(
  client: Client,
  scopes: string[],
  options: { challenge?: string; redirectUri?: string; expiresInMs?: number } = {},
) {
  const code = stack.credentials.newCode();
  await stack.send('IssueAuthorizationCode', {
    code_hash: stack.credentials.hashCode(code),
    client_id: client.id,
    user_id: user._id,
    redirect_uri: options.redirectUri ?? REDIRECT,
    scopes,
    code_challenge: options.challenge ?? null,
    expires_at: Date.now() + (options.expiresInMs ?? 120_000),
  });
  return code;
}

async function token(
  body: Record<string, string | undefined>,
  options: { form?: boolean; headers?: Record<string, string> } = {},
) {
  const clean = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const response = await stack.gateway.inject({
    method: 'POST',
    url: '/v2/auth/oauth2/token',
    headers: {
      'content-type': options.form ? 'application/x-www-form-urlencoded' : 'application/json',
      ...options.headers,
    },
    payload: options.form ? new URLSearchParams(clean).toString() : JSON.stringify(clean),
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, unknown>,
    headers: response.headers,
  };
}

function exchange(client: Client, code: string, extra: Record<string, string | undefined> = {}) {
  return token({
    client_id: client.id,
    client_secret: client.secret,
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    ...extra,
  });
}

async function me(accessToken: string) {
  const response = await stack.gateway.inject({
    method: 'GET',
    url: '/v2/me',
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, unknown>,
    headers: response.headers,
  };
}

function pkce() {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

beforeAll(async () => {
  stack = await startOAuthStack({ failureLimits: { perIp: 1000, perClient: 1000 } });
  developer = await stack.newUser();
  admin = await stack.newUser('admin');
  user = await stack.newUser();
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('client review', () => {
  it('starts pending, cannot be authorized until accepted, and e-mails the owner the decision', async () => {
    const client = await registerClient({ accept: false });
    expect((await stack.store.getClient(client.id))?.status).toBe('pending');
    await expect(authorize(client, ['BOOKING_READ'])).rejects.toMatchObject({ code: 'unauthorized_client' });

    await review(client.id, 'accepted', 'Approved for the CRM sync only.');
    expect((await stack.store.getClient(client.id))?.status).toBe('accepted');
    const mail = await waitForMail(developer.email, 'was accepted');
    expect(mail.Subject).toBe('Your OAuth client "Booking Sync" was accepted');
    const text = await messageText(mail.ID);
    expect(text).toContain(client.id);
    // The reviewer's note goes with an acceptance too.
    expect(text).toContain('Approved for the CRM sync only.');
    await expect(review(client.id, 'rejected')).rejects.toMatchObject({ code: 'not_pending' });
  });

  it("e-mails a rejection with the reviewer's reason", async () => {
    const client = await registerClient({ accept: false });
    await review(client.id, 'rejected', 'Purpose is too vague.');
    const mail = await waitForMail(developer.email, 'was rejected');
    expect(await messageText(mail.ID)).toContain('Purpose is too vague.');
    await expect(authorize(client, ['BOOKING_READ'])).rejects.toMatchObject({ code: 'unauthorized_client' });
  });

  it('sends an accepted client back to review when a reviewed field changes, not when nothing does', async () => {
    const client = await registerClient();
    const base = {
      client_id: client.id,
      owner_user_id: developer._id,
      name: 'Booking Sync',
      logo_url: null,
      website_url: 'https://app.example.com',
      purpose: 'Syncs bookings to our CRM.',
      redirect_uris: [REDIRECT, 'http://localhost:8080/cb'],
      scopes: ['BOOKING_READ', 'BOOKING_WRITE', 'TEAM_PROFILE_READ'],
    };
    await stack.send('UpdateClient', base);
    expect((await stack.store.getClient(client.id))?.status).toBe('accepted');
    await stack.send('UpdateClient', { ...base, purpose: 'Syncs bookings to our CRM and calendar.' });
    expect((await stack.store.getClient(client.id))?.status).toBe('pending');
  });

  it('refuses more than 10 redirect URIs and a client without scopes, listing the problems', async () => {
    const create = (overrides: Record<string, unknown>) =>
      stack.send('CreateClient', {
        client_id: `cl_${randomBytes(8).toString('hex')}`,
        owner_user_id: developer._id,
        owner_email: developer.email,
        name: 'X',
        logo_url: null,
        website_url: null,
        purpose: 'p',
        redirect_uris: [REDIRECT],
        scopes: ['BOOKING_READ'],
        kind: 'confidential',
        ...overrides,
      });
    await expect(
      create({ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example.com/${i}`) }),
    ).rejects.toMatchObject({
      code: 'invalid_client',
      issues: [expect.objectContaining({ field: 'redirect_uris', code: 'too_many' })],
    });
    await expect(create({ scopes: [] })).rejects.toMatchObject({
      issues: [expect.objectContaining({ field: 'scopes', code: 'required' })],
    });
    await expect(create({ redirect_uris: ['http://evil.example.com/cb'] })).rejects.toMatchObject({
      issues: [expect.objectContaining({ field: 'redirect_uris' })],
    });
  });
});

describe('token endpoint: authorization code', () => {
  it("exchanges a code for the spec's token response, JSON or form, and the token reaches /v2/me", async () => {
    const client = await registerClient();
    const { status, body, headers } = await exchange(client, await authorize(client, ['BOOKING_READ']));
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-store');
    expect(body).toEqual({
      access_token: expect.stringMatching(/^cal_at_/),
      token_type: 'bearer',
      refresh_token: expect.stringMatching(/^cal_rt_/),
      expires_in: 1800,
      scope: 'BOOKING_READ',
    });
    const profile = await me(body['access_token'] as string);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ status: 'success', data: { id: user._id, email: user.email } });

    const form = await token(
      {
        client_id: client.id,
        client_secret: client.secret,
        grant_type: 'authorization_code',
        code: await authorize(client, ['BOOKING_READ', 'BOOKING_WRITE']),
        redirect_uri: REDIRECT,
      },
      { form: true },
    );
    expect(form.status).toBe(200);
    expect(form.body['scope']).toBe('BOOKING_READ BOOKING_WRITE');
  });

  it('accepts client_secret_basic', async () => {
    const client = await registerClient();
    const basic = Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret!)}`).toString(
      'base64',
    );
    const { status } = await token(
      { grant_type: 'authorization_code', code: await authorize(client, ['BOOKING_READ']), redirect_uri: REDIRECT },
      { headers: { authorization: `Basic ${basic}` } },
    );
    expect(status).toBe(200);
  });

  it('answers every error row of the spec with its status and {error, error_description}', async () => {
    const client = await registerClient();
    const code = await authorize(client, ['BOOKING_READ']);
    const rows: [string, Record<string, string | undefined>, number, string][] = [
      [
        'missing client_id',
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_secret: client.secret },
        400,
        'invalid_request',
      ],
      [
        'unsupported grant_type',
        { client_id: client.id, client_secret: client.secret, grant_type: 'password' },
        400,
        'unsupported_grant_type',
      ],
      [
        'unknown client',
        { client_id: 'cl_nope', client_secret: 'x', grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        401,
        'invalid_client',
      ],
      [
        'secret mismatch',
        {
          client_id: client.id,
          client_secret: 'cal_secret_wrong',
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
        },
        401,
        'invalid_client',
      ],
      [
        'missing secret',
        { client_id: client.id, grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        401,
        'invalid_client',
      ],
      [
        'invalid code',
        {
          client_id: client.id,
          client_secret: client.secret,
          grant_type: 'authorization_code',
          code: 'cal_code_nope',
          redirect_uri: REDIRECT,
        },
        400,
        'invalid_grant',
      ],
      [
        'redirect_uri differs',
        {
          client_id: client.id,
          client_secret: client.secret,
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'http://localhost:8080/cb',
        },
        400,
        'invalid_grant',
      ],
      [
        'missing redirect_uri',
        { client_id: client.id, client_secret: client.secret, grant_type: 'authorization_code', code },
        400,
        'invalid_request',
      ],
      [
        'invalid refresh token',
        {
          client_id: client.id,
          client_secret: client.secret,
          grant_type: 'refresh_token',
          refresh_token: 'cal_rt_nope',
        },
        400,
        'invalid_grant',
      ],
      [
        'oversized parameter',
        {
          client_id: client.id,
          client_secret: client.secret,
          grant_type: 'authorization_code',
          code: 'x'.repeat(600),
          redirect_uri: REDIRECT,
        },
        400,
        'invalid_request',
      ],
    ];
    // Cal.com's reason codes where it has them; a sentence elsewhere.
    const reasons: Record<string, string> = {
      'unknown client': 'client_not_found',
      'secret mismatch': 'invalid_client_credentials',
      'missing secret': 'invalid_client_credentials',
      'invalid code': 'code_invalid_or_expired',
      'invalid refresh token': 'invalid_refresh_token',
    };
    for (const [what, body, status, error] of rows) {
      const response = await token(body);
      expect({ what, status: response.status, error: response.body['error'] }).toEqual({ what, status, error });
      expect(response.body['error_description'], what).toEqual(reasons[what] ?? expect.stringMatching(/ /));
    }
    // None of the failures consumed the code.
    expect((await exchange(client, code)).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const client = await registerClient();
    const code = await authorize(client, ['BOOKING_READ'], { expiresInMs: 1 });
    await new Promise((r) => setTimeout(r, 20));
    const response = await exchange(client, code);
    expect(response.status).toBe(400);
    expect(response.body['error']).toBe('invalid_grant');
  });

  it("caps a code's lifetime in the worker, whatever expires_at the sender asked for", async () => {
    const client = await registerClient();
    const exchangeAt = (code: string, requestedAt: number) =>
      stack.send(
        'ExchangeAuthorizationCode',
        {
          client_id: client.id,
          client_secret_hash: stack.credentials.hashClientSecret(client.secret!),
          code_hash: stack.credentials.hashCode(code),
          redirect_uri: REDIRECT,
          code_verifier_digest: null,
          refresh_token_hash: stack.credentials.hashRefreshToken(stack.credentials.newRefreshToken()),
          requested_at: requestedAt,
        },
        stack.credentials.hashCode(code),
      );
    const aDay = 86_400_000;
    const stale = await authorize(client, ['BOOKING_READ'], { expiresInMs: aDay });
    await expect(exchangeAt(stale, Date.now() + (MAX_CODE_TTL_SECONDS + 5) * 1000)).rejects.toMatchObject({
      code: 'invalid_grant',
    });
    const fresh = await authorize(client, ['BOOKING_READ'], { expiresInMs: aDay });
    await expect(exchangeAt(fresh, Date.now() + (MAX_CODE_TTL_SECONDS - 30) * 1000)).resolves.toMatchObject({
      client_id: client.id,
      scopes: ['BOOKING_READ'],
    });
  });

  it('treats a code used twice as stolen: the second use fails and the tokens of the first are revoked', async () => {
    const client = await registerClient();
    const code = await authorize(client, ['BOOKING_READ']);
    const first = await exchange(client, code);
    expect(first.status).toBe(200);
    const second = await exchange(client, code);
    expect(second.status).toBe(400);
    expect(second.body['error']).toBe('invalid_grant');
    // The revocation reaches the gateway's in-memory list through Redis pub/sub: asynchronously.
    await waitFor(async () => (await me(first.body['access_token'] as string)).status === 401, {
      what: 'access token of a reused code refused',
    });
    const refreshed = await token({
      client_id: client.id,
      client_secret: client.secret,
      grant_type: 'refresh_token',
      refresh_token: first.body['refresh_token'] as string,
    });
    expect(refreshed.status).toBe(400);
  });

  it('public clients: PKCE S256 is verified and no secret is involved', async () => {
    const client = await registerClient({ kind: 'public' });
    const { verifier, challenge } = pkce();
    await expect(authorize(client, ['BOOKING_READ'])).rejects.toMatchObject({ code: 'invalid_request' });
    const code = await authorize(client, ['BOOKING_READ'], { challenge });
    const wrong = await exchange(client, code, { code_verifier: pkce().verifier });
    expect([wrong.status, wrong.body['error']]).toEqual([400, 'invalid_grant']);
    const missing = await exchange(client, code);
    expect([missing.status, missing.body['error']]).toEqual([400, 'invalid_grant']);
    const withSecret = await exchange(client, code, { code_verifier: verifier, client_secret: 'cal_secret_x' });
    expect([withSecret.status, withSecret.body['error']]).toEqual([401, 'invalid_client']);
    const ok = await exchange(client, code, { code_verifier: verifier });
    expect(ok.status).toBe(200);
    const refreshed = await token({
      client_id: client.id,
      grant_type: 'refresh_token',
      refresh_token: ok.body['refresh_token'] as string,
    });
    expect(refreshed.status).toBe(200);
  });
});

describe('token endpoint: refresh', () => {
  it('rotates the refresh token, keeps the original scopes, and revokes the family when an old one is reused', async () => {
    const client = await registerClient();
    const first = await exchange(client, await authorize(client, ['BOOKING_READ', 'TEAM_PROFILE_READ']));
    const refresh = (refreshToken: string) =>
      token(
        {
          client_id: client.id,
          client_secret: client.secret,
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        },
        { form: true },
      );
    const second = await refresh(first.body['refresh_token'] as string);
    expect(second.status).toBe(200);
    expect(second.body['scope']).toBe('BOOKING_READ TEAM_PROFILE_READ');
    expect(second.body['refresh_token']).not.toBe(first.body['refresh_token']);
    expect((await me(second.body['access_token'] as string)).status).toBe(200);

    const reused = await refresh(first.body['refresh_token'] as string);
    expect([reused.status, reused.body['error']]).toEqual([400, 'invalid_grant']);
    await waitFor(async () => (await me(second.body['access_token'] as string)).status === 401, {
      what: 'access token of a reused refresh family refused',
    });
    // A token of the revoked family is refused as an invalid refresh token, every time (the first attempt's claim
    // uses it up; the second finds it used, and still says why it is refused: its authorization is revoked).
    for (let i = 0; i < 2; i++) {
      const refused = await refresh(second.body['refresh_token'] as string);
      expect([refused.status, refused.body['error'], refused.body['error_description']]).toEqual([
        400,
        'invalid_grant',
        'invalid_refresh_token',
      ]);
    }
  });
});

describe('approval after issuance', () => {
  it('refuses to refresh for a client back in review, and stops every token of a rejected client', async () => {
    const client = await registerClient();
    const issued = await exchange(client, await authorize(client, ['BOOKING_READ']));
    const refresh = (refreshToken: string) =>
      token({
        client_id: client.id,
        client_secret: client.secret,
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
    // Back in review (a reviewed field changed): no new tokens until it is accepted again.
    const current = (await stack.store.getClient(client.id))!;
    await stack.send('UpdateClient', {
      client_id: client.id,
      owner_user_id: developer._id,
      name: current.name,
      logo_url: current.logo_url,
      website_url: current.website_url,
      purpose: `${current.purpose} And more.`,
      redirect_uris: current.redirect_uris,
      scopes: current.scopes,
    });
    expect((await stack.store.getClient(client.id))?.status).toBe('pending');
    const waiting = await refresh(issued.body['refresh_token'] as string);
    expect([waiting.status, waiting.body['error'], waiting.body['error_description']]).toEqual([
      400,
      'unauthorized_client',
      'client_not_approved',
    ]);
    // Its access tokens live out their short life meanwhile; a rejection ends them and its grants at once.
    expect((await me(issued.body['access_token'] as string)).status).toBe(200);
    await review(client.id, 'rejected', 'Not what it says.');
    await waitFor(async () => (await me(issued.body['access_token'] as string)).status === 401 || undefined, {
      what: "a rejected client's access token refused",
    });
    const grant = (await stack.store.liveGrantIdsOfClient(client.id)).length;
    expect(grant).toBe(0);
  });
});

describe('secret rotation', () => {
  it('allows two active secrets, refuses a third, revokes immediately, and keeps issued tokens valid', async () => {
    const client = await registerClient();
    const firstSecret = client.secret!;
    const issued = await exchange(client, await authorize(client, ['BOOKING_READ']));
    const secondSecret = await generateSecret(client);
    await expect(generateSecret(client)).rejects.toMatchObject({ code: 'too_many_secrets' });

    for (const secret of [firstSecret, secondSecret]) {
      expect((await exchange({ ...client, secret }, await authorize(client, ['BOOKING_READ']))).status).toBe(200);
    }
    await stack.send('RevokeClientSecret', {
      client_id: client.id,
      owner_user_id: developer._id,
      secret_id: client.secretIds[0]!,
    });
    const revoked = await exchange({ ...client, secret: firstSecret }, await authorize(client, ['BOOKING_READ']));
    expect([revoked.status, revoked.body['error']]).toEqual([401, 'invalid_client']);

    expect((await me(issued.body['access_token'] as string)).status).toBe(200);
    const refreshed = await token({
      client_id: client.id,
      client_secret: secondSecret,
      grant_type: 'refresh_token',
      refresh_token: issued.body['refresh_token'] as string,
    });
    expect(refreshed.status).toBe(200);
    const stored = await stack.store.getClient(client.id);
    expect(stored?.secrets.map((s) => s.hash)).toEqual([stack.credentials.hashClientSecret(secondSecret)]);
    expect(JSON.stringify(stored)).not.toContain(secondSecret);

    const revoke = (secretId: string) =>
      stack.send('RevokeClientSecret', { client_id: client.id, owner_user_id: developer._id, secret_id: secretId });
    // The same revocation again is done already; an id the client never had is not found, not "done".
    await expect(revoke(client.secretIds[0]!)).resolves.toBeDefined();
    await expect(revoke('sec_never')).rejects.toMatchObject({ kind: 'not_found', code: 'secret_not_found' });
    // The last secret of a confidential client stays until another is made (it could not get tokens without one).
    await expect(revoke(client.secretIds[1]!)).rejects.toMatchObject({ kind: 'conflict', code: 'last_secret' });
    expect((await stack.store.getClient(client.id))?.secrets).toHaveLength(1);
  });
});

describe('legacy clients', () => {
  it('skip scope validation until scopes are saved; tokens issued before keep working', async () => {
    const client = await registerClient({ scopes: ['READ_BOOKING'] });
    const legacyTokens = await exchange(client, await authorize(client, ['BOOKING_READ', 'TEAM_PROFILE_READ']));
    expect(legacyTokens.status).toBe(200);
    expect(stack.accessTokens.verify(legacyTokens.body['access_token'] as string)).toMatchObject({ legacy: true });

    // Adding only user-level scopes keeps it accepted; it is no longer legacy.
    await stack.send('UpdateClient', {
      client_id: client.id,
      owner_user_id: developer._id,
      name: 'Booking Sync',
      logo_url: null,
      website_url: 'https://app.example.com',
      purpose: 'Syncs bookings to our CRM.',
      redirect_uris: [REDIRECT, 'http://localhost:8080/cb'],
      scopes: ['READ_BOOKING', 'BOOKING_READ'],
    });
    const stored = await stack.store.getClient(client.id);
    expect(stored?.status).toBe('accepted');
    await expect(authorize(client, ['TEAM_PROFILE_READ'])).rejects.toMatchObject({ code: 'invalid_scope' });
    const modern = await exchange(client, await authorize(client, ['BOOKING_READ']));
    expect(stack.accessTokens.verify(modern.body['access_token'] as string)).toMatchObject({
      legacy: false,
      scp: ['BOOKING_READ'],
    });
    expect((await me(legacyTokens.body['access_token'] as string)).status).toBe(200);
    const refreshed = await token({
      client_id: client.id,
      client_secret: client.secret,
      grant_type: 'refresh_token',
      refresh_token: legacyTokens.body['refresh_token'] as string,
    });
    expect(stack.accessTokens.verify(refreshed.body['access_token'] as string)).toMatchObject({ legacy: true });
  });
});

describe('bearer tokens', () => {
  it('refuses missing, tampered, expired and refresh tokens with 401 and WWW-Authenticate', async () => {
    const client = await registerClient();
    const { body } = await exchange(client, await authorize(client, ['BOOKING_READ']));
    const access = body['access_token'] as string;
    // Change a signature character in the middle: the last one carries unused bits, so changing it may not change the MAC.
    const middle = access.lastIndexOf('.') + 20;
    const tampered = `${access.slice(0, middle)}${access[middle] === 'A' ? 'B' : 'A'}${access.slice(middle + 1)}`;
    const expired = stack.accessTokens.issue(
      { sub: user._id, cid: client.id, gid: 'grt_x', scp: ['BOOKING_READ'], legacy: false },
      -1,
    ).token;
    const forged = `cal_at_${Buffer.from(JSON.stringify({ sub: user._id, cid: client.id, gid: 'g', scp: [], legacy: true, exp: 9e9 })).toString('base64url')}.${'A'.repeat(43)}`;
    for (const candidate of [tampered, expired, forged, body['refresh_token'] as string]) {
      const response = await me(candidate);
      expect(response.status).toBe(401);
      expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
      expect(response.body).toEqual({
        status: 'error',
        error: { code: 'INVALID_TOKEN', message: 'The access token is invalid, expired or revoked.' },
      });
    }
    const none = await stack.gateway.inject({ method: 'GET', url: '/v2/me' });
    expect(none.statusCode).toBe(401);
  });
});

describe('RFC 7009, 7662, 8414', () => {
  it("introspects only the client's own tokens and revokes a grant", async () => {
    const client = await registerClient();
    const other = await registerClient();
    const { body } = await exchange(client, await authorize(client, ['BOOKING_READ']));
    const introspect = async (c: Client, tokenValue: string) =>
      JSON.parse(
        (
          await stack.gateway.inject({
            method: 'POST',
            url: '/v2/auth/oauth2/introspect',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({ client_id: c.id, client_secret: c.secret!, token: tokenValue }).toString(),
          })
        ).body,
      ) as Record<string, unknown>;
    expect(await introspect(client, body['access_token'] as string)).toMatchObject({
      active: true,
      token_type: 'access_token',
      scope: 'BOOKING_READ',
      client_id: client.id,
      sub: user._id,
    });
    expect(await introspect(client, body['refresh_token'] as string)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
    });
    expect(await introspect(other, body['access_token'] as string)).toEqual({ active: false });

    const revoke = await stack.gateway.inject({
      method: 'POST',
      url: '/v2/auth/oauth2/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        client_id: client.id,
        client_secret: client.secret!,
        token: body['refresh_token'] as string,
      }).toString(),
    });
    expect(revoke.statusCode).toBe(200);
    await waitFor(async () => (await me(body['access_token'] as string)).status === 401, {
      what: 'revoked access token refused',
    });
    expect(await introspect(client, body['refresh_token'] as string)).toEqual({ active: false });
  });

  it('publishes authorization server metadata', async () => {
    const response = await stack.gateway.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      issuer: stack.issuer,
      token_endpoint: `${stack.issuer}/v2/auth/oauth2/token`,
      authorization_endpoint: 'http://127.0.0.1:3000/auth/oauth2/authorize',
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });
});

describe('the OAuth endpoints in /openapi.json', () => {
  it('document the body of every status they answer with', async () => {
    const document = JSON.parse((await stack.gateway.inject({ method: 'GET', url: '/openapi.json' })).body) as {
      paths: Record<
        string,
        { post?: { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> } }
      >;
    };
    for (const path of ['/v2/auth/oauth2/token', '/v2/auth/oauth2/revoke', '/v2/auth/oauth2/introspect']) {
      const responses = document.paths[path]?.post?.responses ?? {};
      expect(Object.keys(responses).sort(), path).toEqual(['200', '400', '401', '415', '429', '500', '503', '504']);
      for (const [status, response] of Object.entries(responses)) {
        expect(response.content?.['application/json']?.schema, `${path} ${status}`).toBeDefined();
      }
    }
  });
});
