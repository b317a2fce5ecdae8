import { createHash } from 'node:crypto';
import { Signer } from '@fastify/cookie';
import { MessageTypeNames } from '@platform/contracts';
import { ConflictError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import type { SchedulingUserDoc } from '@platform/identity';
import { createOAuthCredentials, NO_REACH, type OAuthClientDoc, type UserReach } from '@platform/oauth';
import { createLogger } from '@platform/telemetry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { createRedisSessionStore, type SessionRedis } from './session.js';

const PUBLIC_URL = 'https://app.example.com';
const ISSUER = 'https://api.example.com';
const CALLBACK = 'https://client.example.com/cb?x=1';

function user(id: string, role: 'user' | 'admin' = 'user'): SchedulingUserDoc {
  const now = new Date();
  return {
    _id: id,
    email: `${id}@example.com`,
    name: id,
    username: id,
    password_hash: '',
    role,
    time_zone: 'UTC',
    created_at: now,
    updated_at: now,
  };
}

function client(overrides: Partial<OAuthClientDoc> = {}): OAuthClientDoc {
  const now = new Date();
  return {
    _id: 'cal_client_1',
    owner_user_id: 'usr_dev',
    owner_email: 'usr_dev@example.com',
    name: 'Sync <b>CRM</b>',
    logo_url: null,
    website_url: 'https://crm.example.com',
    purpose: 'Sync',
    redirect_uris: [CALLBACK],
    scopes: ['BOOKING_READ'],
    kind: 'confidential',
    status: 'accepted',
    secrets: [],
    reviewed_by: null,
    reviewed_at: null,
    review_reason: null,
    version: 1,
    created_at: now,
    updated_at: now,
    outbox: [],
    has_outbox: false,
    ...overrides,
  };
}

const SESSION_TTL = 3600;

/** Redis as the session store uses it: values with their time to live, in seconds. */
function fakeRedis() {
  const entries = new Map<string, { value: string; ttl: number }>();
  const redis: SessionRedis = {
    async getex(key, _expiry, seconds) {
      const entry = entries.get(key);
      if (entry) entry.ttl = seconds;
      return entry?.value ?? null;
    },
    async set(key, value, _expiry, seconds) {
      entries.set(key, { value, ttl: seconds });
      return 'OK';
    },
    async del(key) {
      return entries.delete(key) ? 1 : 0;
    },
  };
  return { redis, entries };
}

/** Cookies as a browser keeps them, from Set-Cookie headers. */
class Jar {
  cookies = new Map<string, string>();
  take(setCookie: string | string[] | undefined) {
    for (const line of [setCookie ?? []].flat()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

describe('scheduling web app', () => {
  let app: HttpApp;
  let sent: { type: string; value: Record<string, unknown> }[];
  let clients: Map<string, OAuthClientDoc>;
  let failNext: Error | null;
  let failures: Map<string, number>;
  let reach: Map<string, UserReach>;
  let redis: ReturnType<typeof fakeRedis>;
  const credentials = createOAuthCredentials('p'.repeat(32));
  const users = new Map([
    ['usr_dev', user('usr_dev')],
    ['usr_admin', user('usr_admin', 'admin')],
  ]);

  beforeEach(async () => {
    sent = [];
    failNext = null;
    failures = new Map();
    reach = new Map();
    clients = new Map([['cal_client_1', client()]]);
    redis = fakeRedis();
    app = await buildApp({
      logger: createLogger({ name: 'test', level: 'silent' }),
      readiness: [],
      sessionSecret: 's'.repeat(32),
      store: {
        getClient: async (id) => clients.get(id) ?? null,
        clientsOwnedBy: async (owner) => [...clients.values()].filter((c) => c.owner_user_id === owner),
        clientsWithStatus: async (status) => [...clients.values()].filter((c) => c.status === status),
      },
      users: {
        get: async (id) => users.get(id) ?? null,
        authenticate: async (email, password) =>
          password === 'right password' ? ([...users.values()].find((u) => u.email === email) ?? null) : null,
      },
      commands: {
        send: async (type, _key, value) => {
          if (failNext) throw failNext;
          sent.push({ type, value: value as unknown as Record<string, unknown> });
          return {} as never;
        },
      },
      userReach: async (userId) => reach.get(userId) ?? NO_REACH,
      teamInvites: { describe: async () => null },
      credentials,
      sessions: createRedisSessionStore(redis.redis, { ttlSeconds: SESSION_TTL }),
      loginFailures: {
        check: async (counters) => {
          if (counters.some((c) => (failures.get(c.key) ?? 0) >= c.limit))
            throw Object.assign(new Error('throttled'), { retryAfterSeconds: 120 });
        },
        recordFailure: async (counters) => {
          for (const c of counters) failures.set(c.key, (failures.get(c.key) ?? 0) + 1);
        },
      },
      loginLimits: { perIp: 50, perEmail: 3 },
      publicUrl: PUBLIC_URL,
      issuer: ISSUER,
      codeTtlSeconds: 120,
    });
  });

  afterEach(async () => {
    await app.close();
  });

  const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1];

  async function logIn(jar: Jar, email: string, returnTo = '') {
    const page = await app.inject({ method: 'GET', url: `/login?return_to=${encodeURIComponent(returnTo)}` });
    jar.take(page.headers['set-cookie']);
    return app
      .inject({
        method: 'POST',
        url: '/login',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
        payload: new URLSearchParams({
          email,
          password: 'right password',
          return_to: hidden(page.body, 'return_to') ?? '',
          _csrf: hidden(page.body, '_csrf')!,
        }).toString(),
      })
      .then((response) => {
        jar.take(response.headers['set-cookie']);
        return response;
      });
  }

  async function post(
    jar: Jar,
    url: string,
    form: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ) {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return app.inject({
      method: 'POST',
      url,
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: body.toString(),
    });
  }

  async function csrfOf(jar: Jar) {
    const page = await app.inject({
      method: 'GET',
      url: '/settings/developer/oauth',
      headers: { cookie: jar.header() },
    });
    return hidden(page.body, '_csrf')!;
  }

  it('sends visitors to log in and back, with a rotated HttpOnly Lax session cookie for the browser session', async () => {
    const first = await app.inject({ method: 'GET', url: '/settings/developer/oauth/new?a=1' });
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`/login?return_to=${encodeURIComponent('/settings/developer/oauth/new?a=1')}`);
    const jar = new Jar();
    const login = await logIn(jar, 'usr_dev@example.com', '/settings/developer/oauth/new?a=1');
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/settings/developer/oauth/new?a=1');
    const cookie = [login.headers['set-cookie']].flat().find((c) => c?.startsWith('sid='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Expires|Max-Age/i);
    const sid = jar.cookies.get('sid');
    await logIn(jar, 'usr_dev@example.com');
    expect(jar.cookies.get('sid')).not.toBe(sid);
  });

  it('throttles logins for an address after repeated failures with 429 and Retry-After, even with the right password', async () => {
    const page = await app.inject({ method: 'GET', url: '/login' });
    const jar = new Jar();
    jar.take(page.headers['set-cookie']);
    const attempt = (password: string) =>
      post(jar, '/login', { email: 'usr_dev@example.com', password, _csrf: hidden(page.body, '_csrf')! });
    for (let i = 0; i < 3; i++) expect((await attempt('nope')).statusCode).toBe(401);
    const throttled = await attempt('right password');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('120');
    expect(throttled.body).toContain('Too many failed logins');
  });

  it('refuses a wrong password with 401 and never redirects off-site', async () => {
    const page = await app.inject({ method: 'GET', url: '/login' });
    const jar = new Jar();
    jar.take(page.headers['set-cookie']);
    const wrong = await post(jar, '/login', {
      email: 'usr_dev@example.com',
      password: 'nope',
      _csrf: hidden(page.body, '_csrf')!,
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Incorrect e-mail or password.');
    for (const target of ['https://evil.example.com/', '//evil.example.com', '/\\evil.example.com']) {
      expect((await logIn(new Jar(), 'usr_dev@example.com', target)).headers.location).toBe(
        '/settings/developer/oauth',
      );
    }
  });

  it('refuses posts without the CSRF token or from another origin', async () => {
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const form = { name: 'Forged', purpose: 'x', redirect_uris: CALLBACK, kind: 'public', scopes: 'BOOKING_READ' };
    const missing = await post(jar, '/settings/developer/oauth', form);
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain('Invalid or missing CSRF token.');
    const csrf = await csrfOf(jar);
    expect(
      (await post(jar, '/settings/developer/oauth', { ...form, _csrf: csrf }, { origin: 'https://evil.example.com' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await post(new Jar(), '/login', { email: 'usr_dev@example.com', password: 'right password', _csrf: 'guess' }))
        .statusCode,
    ).toBe(403);
    expect(sent).toEqual([]);
    const ok = await post(jar, '/settings/developer/oauth', { ...form, _csrf: csrf }, { origin: PUBLIC_URL });
    expect(ok.statusCode).toBe(303);
    expect(sent.map((s) => s.type)).toEqual([MessageTypeNames.CreateClient]);
    // A kind that is neither is refused on the form, not registered as a confidential client.
    const odd = await post(
      jar,
      '/settings/developer/oauth',
      { ...form, kind: 'hybrid', _csrf: csrf },
      { origin: PUBLIC_URL },
    );
    expect(odd.statusCode).toBe(400);
    expect(odd.body).toContain('must be confidential or public');
    expect(sent).toHaveLength(1);
  });

  it('refuses every other form post without a valid CSRF token, changing nothing', async () => {
    clients.set('cal_client_2', client({ _id: 'cal_client_2', status: 'pending' }));
    clients.set(
      'cal_client_1',
      client({ secrets: [{ id: 'sec_1', hash: 'h', hint: 'abcd', created_at: new Date() }] }),
    );
    const dev = new Jar();
    await logIn(dev, 'usr_dev@example.com');
    const admin = new Jar();
    await logIn(admin, 'usr_admin@example.com');
    const consent = {
      client_id: 'cal_client_1',
      redirect_uri: CALLBACK,
      scope: 'BOOKING_READ',
      state: 's',
      decision: 'allow',
    };
    const edit = { name: 'Renamed', purpose: 'Sync', redirect_uris: CALLBACK, scopes: 'BOOKING_READ' };
    const posts: [string, Jar, string, Record<string, string>][] = [
      ['consent', dev, '/auth/oauth2/authorize', consent],
      ['admin review', admin, '/settings/admin/oauth/cal_client_2/review', { decision: 'rejected', reason: 'no' }],
      ['secret generation', dev, '/settings/developer/oauth/cal_client_1/secrets', {}],
      ['secret revocation', dev, '/settings/developer/oauth/cal_client_1/secrets/sec_1/revoke', {}],
      ['client edit', dev, '/settings/developer/oauth/cal_client_1', edit],
      ['logout', dev, '/logout', {}],
    ];
    const otherSessionToken = await csrfOf(admin);
    for (const [what, jar, url, form] of posts) {
      for (const token of [undefined, '', 'guess', what === 'admin review' ? await csrfOf(dev) : otherSessionToken]) {
        const response = await post(jar, url, token === undefined ? form : { ...form, _csrf: token });
        expect({ what, token, status: response.statusCode }).toEqual({ what, token, status: 403 });
        expect(response.body).toContain('Invalid or missing CSRF token.');
        expect(response.headers.location).toBeUndefined();
        expect(response.body).not.toContain('cal_secret_');
      }
    }
    expect(sent).toEqual([]);
    // Logout was refused too: both sessions still work.
    for (const jar of [dev, admin]) {
      expect(
        (await app.inject({ method: 'GET', url: '/settings/developer/oauth', headers: { cookie: jar.header() } }))
          .statusCode,
      ).toBe(200);
    }
  });

  it('refuses unsigned and forged session cookies', async () => {
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const signed = decodeURIComponent(jar.cookies.get('sid')!);
    const sid = signed.slice(0, signed.lastIndexOf('.'));
    const page = (cookie: string) =>
      app.inject({ method: 'GET', url: '/settings/developer/oauth', headers: { cookie } });
    expect((await page(jar.header())).statusCode).toBe(200);
    const csrf = await csrfOf(jar);
    for (const cookie of [
      `sid=${encodeURIComponent(sid)}`,
      `sid=${encodeURIComponent(new Signer('x'.repeat(32)).sign(sid))}`,
    ]) {
      const refused = await page(cookie);
      expect(refused.statusCode).toBe(303);
      expect(refused.headers.location).toBe(`/login?return_to=${encodeURIComponent('/settings/developer/oauth')}`);
      const forged = await app.inject({
        method: 'POST',
        url: '/settings/developer/oauth/cal_client_1/secrets',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf }).toString(),
      });
      expect(forged.statusCode).toBe(403);
    }
    expect(sent).toEqual([]);
  });

  it('registers a confidential client and shows its secret once; form errors come back with the values', async () => {
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const csrf = await csrfOf(jar);
    const bad = await post(jar, '/settings/developer/oauth', {
      _csrf: csrf,
      name: 'Mine <x>',
      purpose: '',
      redirect_uris: 'http://evil.example.com/cb',
      kind: 'confidential',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('value="Mine &lt;x&gt;"');
    expect(bad.body).toContain('Select at least one scope.');
    expect(sent).toEqual([]);
    const created = await post(jar, '/settings/developer/oauth', {
      _csrf: csrf,
      name: 'Mine',
      purpose: 'Sync',
      redirect_uris: `${CALLBACK}\r\n`,
      kind: 'confidential',
      scopes: ['BOOKING_READ', 'BOOKING_WRITE'],
    });
    expect(created.statusCode).toBe(200);
    const secret = /data-testid="client-secret"[^>]*>([^<]+)</.exec(created.body)?.[1];
    expect(secret).toMatch(/^cal_secret_/);
    expect(sent.map((s) => s.type)).toEqual([MessageTypeNames.CreateClient, MessageTypeNames.GenerateClientSecret]);
    expect(sent[0]!.value).toMatchObject({
      owner_user_id: 'usr_dev',
      redirect_uris: [CALLBACK],
      scopes: ['BOOKING_READ', 'BOOKING_WRITE'],
    });
    expect(sent[1]!.value).toMatchObject({
      secret_hash: credentials.hashClientSecret(secret!),
      hint: secret!.slice(-4),
    });
  });

  it("shows the owner the client page, escaped, and others a 404; renders the worker's 2-secret conflict as a 409 page", async () => {
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const page = await app.inject({
      method: 'GET',
      url: '/settings/developer/oauth/cal_client_1',
      headers: { cookie: jar.header() },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Sync &lt;b&gt;CRM&lt;/b&gt;</h1>');
    expect(page.body).toContain('data-testid="client-status">accepted<');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cache-control']).toBe('no-store');
    failNext = new ConflictError(
      'too_many_secrets',
      'A client has at most 2 active secrets; revoke one before generating another.',
    );
    const limited = await post(jar, '/settings/developer/oauth/cal_client_1/secrets', { _csrf: await csrfOf(jar) });
    expect(limited.statusCode).toBe(409);
    expect(limited.body).toContain('at most 2 active secrets');

    const admin = new Jar();
    await logIn(admin, 'usr_admin@example.com');
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/settings/developer/oauth/cal_client_1',
          headers: { cookie: admin.header() },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('lets only administrators review', async () => {
    clients.set('cal_client_2', client({ _id: 'cal_client_2', status: 'pending' }));
    const dev = new Jar();
    await logIn(dev, 'usr_dev@example.com');
    expect(
      (await app.inject({ method: 'GET', url: '/settings/admin/oauth', headers: { cookie: dev.header() } })).statusCode,
    ).toBe(403);
    const admin = new Jar();
    await logIn(admin, 'usr_admin@example.com');
    const page = await app.inject({ method: 'GET', url: '/settings/admin/oauth', headers: { cookie: admin.header() } });
    expect(page.body).toContain('data-testid="review-cal_client_2"');
    const reviewed = await post(admin, '/settings/admin/oauth/cal_client_2/review', {
      _csrf: hidden(page.body, '_csrf')!,
      decision: 'accepted',
      reason: '',
    });
    expect(reviewed.statusCode).toBe(303);
    expect(sent[0]!.value).toEqual({
      client_id: 'cal_client_2',
      reviewer_user_id: 'usr_admin',
      decision: 'accepted',
      reason: null,
    });
  });

  it('authorizes: errors on the page or redirected with state and iss, consent, then a code redirect', async () => {
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const authorize = (params: Record<string, string>) =>
      app.inject({
        method: 'GET',
        url: `/auth/oauth2/authorize?${new URLSearchParams(params).toString()}`,
        headers: { cookie: jar.header() },
      });

    const unknown = await authorize({ client_id: 'nope', redirect_uri: CALLBACK, scope: 'BOOKING_READ' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toMatch(/data-testid="authorize-error">No OAuth client exists/);
    const noScope = await authorize({ client_id: 'cal_client_1', redirect_uri: CALLBACK });
    expect(noScope.body).toContain('data-testid="authorize-error">scope parameter is required for this OAuth client<');
    // A legacy client's URL from before scopes: the consent page, not an error.
    clients.set('cal_legacy', client({ _id: 'cal_legacy', scopes: [] }));
    const legacy = await authorize({ client_id: 'cal_legacy', redirect_uri: CALLBACK, state: 'old' });
    expect(legacy.statusCode).toBe(200);
    expect(legacy.body).toContain('registered before scopes existed');
    expect(legacy.body).toContain('<input type="hidden" name="client_id" value="cal_legacy">');
    const repeated = await app.inject({
      method: 'GET',
      url: `/auth/oauth2/authorize?client_id=cal_client_1&client_id=x`,
      headers: { cookie: jar.header() },
    });
    expect(repeated.statusCode).toBe(400);

    const beyond = await authorize({
      client_id: 'cal_client_1',
      redirect_uri: CALLBACK,
      scope: 'BOOKING_WRITE',
      state: 's1',
    });
    expect(beyond.statusCode).toBe(303);
    const location = new URL(beyond.headers.location as string);
    expect([
      location.searchParams.get('error'),
      location.searchParams.get('state'),
      location.searchParams.get('iss'),
      location.searchParams.get('x'),
    ]).toEqual(['invalid_request', 's1', ISSUER, '1']);

    const consent = await authorize({
      client_id: 'cal_client_1',
      redirect_uri: CALLBACK,
      scope: 'BOOKING_READ',
      state: 's<2>',
    });
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain('<h1>Authorize Sync &lt;b&gt;CRM&lt;/b&gt;</h1>');
    expect(consent.headers['content-security-policy']).toContain("form-action 'self' https://client.example.com;");
    const form = {
      _csrf: hidden(consent.body, '_csrf')!,
      client_id: 'cal_client_1',
      redirect_uri: CALLBACK,
      scope: 'BOOKING_READ',
      state: 's<2>',
    };
    expect(hidden(consent.body, 'state')).toBe('s&lt;2&gt;');

    const denied = await post(jar, '/auth/oauth2/authorize', { ...form, decision: 'deny' });
    expect(new URL(denied.headers.location as string).searchParams.get('error')).toBe('access_denied');
    const tampered = await post(jar, '/auth/oauth2/authorize', { ...form, scope: 'BOOKING_WRITE', decision: 'allow' });
    expect(new URL(tampered.headers.location as string).searchParams.get('error')).toBe('invalid_request');
    expect(sent).toEqual([]);

    const allowed = await post(jar, '/auth/oauth2/authorize', { ...form, decision: 'allow' });
    expect(allowed.statusCode).toBe(303);
    const back = new URL(allowed.headers.location as string);
    expect(back.origin + back.pathname).toBe('https://client.example.com/cb');
    expect([back.searchParams.get('x'), back.searchParams.get('state'), back.searchParams.get('iss')]).toEqual([
      '1',
      's<2>',
      ISSUER,
    ]);
    const code = back.searchParams.get('code')!;
    expect(sent).toEqual([
      {
        type: MessageTypeNames.IssueAuthorizationCode,
        value: expect.objectContaining({
          code_hash: credentials.hashCode(code),
          client_id: 'cal_client_1',
          user_id: 'usr_dev',
          scopes: ['BOOKING_READ'],
          code_challenge: null,
        }),
      },
    ]);
  });

  it('lists the requested scopes in words on the consent page, and only those', async () => {
    clients.set('cal_client_1', client({ scopes: ['BOOKING_READ', 'BOOKING_WRITE', 'SCHEDULE_READ'] }));
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const params = new URLSearchParams({
      client_id: 'cal_client_1',
      redirect_uri: CALLBACK,
      scope: 'BOOKING_READ,BOOKING_WRITE',
    });
    const page = await app.inject({
      method: 'GET',
      url: `/auth/oauth2/authorize?${params.toString()}`,
      headers: { cookie: jar.header() },
    });
    expect(page.statusCode).toBe(200);
    const items = [...page.body.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]);
    expect(items).toEqual([
      'View your bookings (<code>BOOKING_READ</code>)',
      'Create, edit and delete your bookings (<code>BOOKING_WRITE</code>)',
    ]);
  });

  it('redirects with access_denied when the user lacks permission for the requested scopes, on the page and on the post', async () => {
    clients.set('cal_client_1', client({ scopes: ['BOOKING_READ', 'TEAM_PROFILE_READ'] }));
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const params = {
      client_id: 'cal_client_1',
      redirect_uri: CALLBACK,
      scope: 'BOOKING_READ TEAM_PROFILE_READ',
      state: 's9',
    };
    const authorize = () =>
      app.inject({
        method: 'GET',
        url: `/auth/oauth2/authorize?${new URLSearchParams(params).toString()}`,
        headers: { cookie: jar.header() },
      });
    const refused = await authorize();
    expect(refused.statusCode).toBe(303);
    const back = new URL(refused.headers.location as string);
    expect(back.origin + back.pathname).toBe('https://client.example.com/cb');
    expect([
      back.searchParams.get('error'),
      back.searchParams.get('state'),
      back.searchParams.get('iss'),
      back.searchParams.get('code'),
    ]).toEqual(['access_denied', 's9', ISSUER, null]);
    expect(back.searchParams.get('error_description')).toContain('TEAM_PROFILE_READ');
    const posted = await post(jar, '/auth/oauth2/authorize', {
      ...params,
      _csrf: await csrfOf(jar),
      decision: 'allow',
    });
    expect(new URL(posted.headers.location as string).searchParams.get('error')).toBe('access_denied');
    expect(sent).toEqual([]);

    reach.set('usr_dev', { teams: true, organizations: false });
    const consent = await authorize();
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain('View team profiles');
  });

  it('redirects a public client that omits code_challenge_method like one that sends plain', async () => {
    clients.set('cal_client_1', client({ kind: 'public' }));
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const authorize = (extra: Record<string, string>) =>
      app.inject({
        method: 'GET',
        url: `/auth/oauth2/authorize?${new URLSearchParams({ client_id: 'cal_client_1', redirect_uri: CALLBACK, scope: 'BOOKING_READ', state: 'p', code_challenge: challenge, ...extra }).toString()}`,
        headers: { cookie: jar.header() },
      });
    for (const extra of [{}, { code_challenge_method: 'plain' }] as Record<string, string>[]) {
      const refused = await authorize(extra);
      expect(refused.statusCode).toBe(303);
      const back = new URL(refused.headers.location as string).searchParams;
      expect([back.get('error'), back.get('error_description'), back.get('state')]).toEqual([
        'invalid_request',
        'code_challenge_method must be S256',
        'p',
      ]);
    }
    expect((await authorize({ code_challenge_method: 'S256' })).statusCode).toBe(200);
  });

  it('renders unknown routes as an HTML 404 with the security headers, and logs out', async () => {
    const missing = await app.inject({ method: 'GET', url: '/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const out = await post(jar, '/logout', { _csrf: await csrfOf(jar) });
    expect(out.headers.location).toBe('/login');
    jar.take(out.headers['set-cookie']);
    expect(
      (await app.inject({ method: 'GET', url: '/settings/developer/oauth', headers: { cookie: jar.header() } }))
        .statusCode,
    ).toBe(303);
  });
  /** The session id in a `sid` cookie value (`<id>.<signature>`, URL-encoded). */
  const sessionId = (cookie: string) => {
    const signed = decodeURIComponent(cookie);
    return signed.slice(0, signed.lastIndexOf('.'));
  };
  const storeKey = (id: string) => `web:session:${createHash('sha256').update(id).digest('hex')}`;
  const settingsPage = (jar: Jar) =>
    app.inject({ method: 'GET', url: '/settings/developer/oauth', headers: { cookie: jar.header() } });

  it('keeps sessions in the store under the SHA-256 of their id, renews them on every read, and ends them at login and logout', async () => {
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const first = sessionId(jar.cookies.get('sid')!);
    expect([...redis.entries.keys()]).toEqual([storeKey(first)]);
    const stored = redis.entries.get(storeKey(first))!;
    expect(stored.value).not.toContain(first);
    expect(JSON.parse(stored.value)).toEqual({ userId: 'usr_dev' });

    // Sliding expiry: every request that reads the session gives it its full idle time again.
    stored.ttl = 5;
    expect((await settingsPage(jar)).statusCode).toBe(200);
    expect(redis.entries.get(storeKey(first))!.ttl).toBe(SESSION_TTL);
    // The page's forms needed the session's CSRF secret: made then, and kept in the session only.
    expect(Object.keys(JSON.parse(redis.entries.get(storeKey(first))!.value))).toEqual(['userId', '_csrf']);

    // Logging in again destroys the previous session (a stolen copy of its cookie is worth nothing).
    const stale = jar.header();
    await logIn(jar, 'usr_dev@example.com');
    const second = sessionId(jar.cookies.get('sid')!);
    expect(second).not.toBe(first);
    expect([...redis.entries.keys()]).toEqual([storeKey(second)]);
    expect(
      (await app.inject({ method: 'GET', url: '/settings/developer/oauth', headers: { cookie: stale } })).statusCode,
    ).toBe(303);

    const before = jar.header();
    const out = await post(jar, '/logout', { _csrf: await csrfOf(jar) });
    expect(out.statusCode).toBe(303);
    expect([out.headers['set-cookie']].flat().find((c) => c?.startsWith('sid='))).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(redis.entries.size).toBe(0);
    // Revoked on the server: the cookie as it was before logging out no longer opens a page.
    expect(
      (await app.inject({ method: 'GET', url: '/settings/developer/oauth', headers: { cookie: before } })).statusCode,
    ).toBe(303);
  });

  it('binds form tokens to their session: a token of an ended session is refused in the next one', async () => {
    const form = { name: 'Mine', purpose: 'x', redirect_uris: CALLBACK, kind: 'public', scopes: 'BOOKING_READ' };
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const old = await csrfOf(jar);
    await logIn(jar, 'usr_dev@example.com');
    const relogged = await post(jar, '/settings/developer/oauth', { ...form, _csrf: old });
    expect([relogged.statusCode, relogged.headers['content-type']]).toEqual([403, 'text/html; charset=utf-8']);
    expect(relogged.body).toContain('Invalid or missing CSRF token.');
    const current = await csrfOf(jar);
    await post(jar, '/logout', { _csrf: current });
    await logIn(jar, 'usr_dev@example.com');
    expect((await post(jar, '/settings/developer/oauth', { ...form, _csrf: current })).statusCode).toBe(403);
    expect(sent).toEqual([]);
    // Any page of the session makes tokens that work, as many as it likes.
    const [a, b] = [await csrfOf(jar), await csrfOf(jar)];
    expect(a).not.toBe(b);
    for (const token of [a, b])
      expect((await post(jar, '/settings/developer/oauth', { ...form, _csrf: token })).statusCode).toBe(303);
  });

  it('checks the token field only, once, and the Origin when the browser names one', async () => {
    const form = { name: 'Mine', purpose: 'x', redirect_uris: CALLBACK, kind: 'public', scopes: 'BOOKING_READ' };
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const csrf = await csrfOf(jar);
    const refused = [
      await post(jar, '/settings/developer/oauth', { ...form, _csrf: [csrf, csrf] }),
      await post(jar, '/settings/developer/oauth', form, { 'x-csrf-token': csrf }),
      await post(jar, '/settings/developer/oauth', { ...form, _csrf: csrf }, { origin: 'http://app.example.com' }),
    ];
    for (const response of refused) {
      expect([response.statusCode, response.headers['content-type']]).toEqual([403, 'text/html; charset=utf-8']);
      expect(response.body).toContain('Invalid or missing CSRF token.');
    }
    expect(sent).toEqual([]);
    // `Origin: null` (every post from a no-referrer page) says nothing; the token decides.
    expect(
      (await post(jar, '/settings/developer/oauth', { ...form, _csrf: csrf }, { origin: 'null' })).statusCode,
    ).toBe(303);
  });

  it('protects the login form with a signed, Strict double-submit cookie that every tab shares, kept nowhere else', async () => {
    const jar = new Jar();
    const firstTab = await app.inject({ method: 'GET', url: '/login' });
    const cookie = [firstTab.headers['set-cookie']].flat().find((c) => c?.startsWith('csrf='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    jar.take(firstTab.headers['set-cookie']);
    const secondTab = await app.inject({ method: 'GET', url: '/login', headers: { cookie: jar.header() } });
    expect(secondTab.headers['set-cookie']).toBeUndefined();
    const tokens = [hidden(firstTab.body, '_csrf')!, hidden(secondTab.body, '_csrf')!];
    const attempt = (browser: Jar, token: string, password = 'nope') =>
      post(browser, '/login', { email: 'usr_dev@example.com', password, _csrf: token });
    for (const token of tokens) expect((await attempt(jar, token)).statusCode).toBe(401);
    // Another browser's cookie, or one this app did not sign, does not go with these tokens.
    const other = new Jar();
    other.take((await app.inject({ method: 'GET', url: '/login' })).headers['set-cookie']);
    const forged = new Jar();
    forged.cookies.set('csrf', sessionId(jar.cookies.get('csrf')!));
    for (const browser of [other, forged, new Jar()]) {
      const response = await attempt(browser, tokens[0]!, 'right password');
      expect([response.statusCode, response.headers['content-type']]).toEqual([403, 'text/html; charset=utf-8']);
      expect(response.body).toContain('Invalid or missing CSRF token.');
    }
    // No session is kept for visitors who have not logged in.
    expect(redis.entries.size).toBe(0);
    const login = await attempt(jar, tokens[1]!, 'right password');
    expect(login.statusCode).toBe(303);
    jar.take(login.headers['set-cookie']);
    expect(jar.cookies.has('csrf')).toBe(false);
    expect(redis.entries.size).toBe(1);
  });

  it('logs out without a token when there is no session (nothing to end)', async () => {
    const out = await post(new Jar(), '/logout', {});
    expect([out.statusCode, out.headers.location]).toEqual([303, '/login']);
  });

  it('sends the security headers it always sent, and no others', async () => {
    const jar = new Jar();
    await logIn(jar, 'usr_dev@example.com');
    const csp = (response: { headers: Record<string, unknown> }) =>
      String(response.headers['content-security-policy'])
        .split(';')
        .map((directive) => directive.trim());
    const PAGE_CSP = [
      "default-src 'none'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' https: data:",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ];
    const responses = [
      await settingsPage(jar),
      await app.inject({ method: 'GET', url: '/login' }),
      await app.inject({ method: 'GET', url: '/nope' }),
      await app.inject({ method: 'GET', url: '/settings/developer/oauth' }),
      await post(jar, '/settings/developer/oauth', {}),
    ];
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 404, 303, 403]);
    for (const response of responses) {
      expect(csp(response)).toEqual(PAGE_CSP);
      expect(response.headers).toMatchObject({
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      for (const name of [
        'strict-transport-security',
        'cross-origin-opener-policy',
        'cross-origin-resource-policy',
        'cross-origin-embedder-policy',
        'origin-agent-cluster',
        'x-dns-prefetch-control',
        'x-download-options',
        'x-permitted-cross-domain-policies',
        'x-xss-protection',
      ])
        expect(response.headers[name]).toBeUndefined();
    }
    // Logging in on the way to a redirect URI that no CSP source can name: form-action is dropped, not guessed.
    const unnamed = await app.inject({
      method: 'GET',
      url: `/login?return_to=${encodeURIComponent('/auth/oauth2/authorize?redirect_uri=https%3A%2F%2Fexa_mple.com%2Fcb')}`,
    });
    expect(csp(unnamed)).toEqual(PAGE_CSP.filter((directive) => !directive.startsWith('form-action')));
  });
});
