import { createHash } from 'node:crypto';
import type { HttpApp } from '@platform/http';
import type { SchedulingUserDoc } from '@platform/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText, waitForMail } from '../support/mailbox.js';
import { startOAuthStack, startOAuthWeb, TEST_PASSWORD, WEB_URL, type OAuthStack } from '../support/oauth-stack.js';

// The pages of scheduling-web on the real worker (Kafka, FerretDB, Redis, SMTP): what a browser sees.
let stack: OAuthStack;
let web: HttpApp;
let developer: SchedulingUserDoc;
let admin: SchedulingUserDoc;
let user: SchedulingUserDoc;

const REDIRECT = 'https://app.example.com/callback';

/** A browser: keeps cookies, and the session's CSRF token from the last page that had a form. */
class Browser {
  private cookies = new Map<string, string>();
  csrf = '';

  cookie(name: string) {
    return this.cookies.get(name);
  }

  private header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(response: Awaited<ReturnType<HttpApp['inject']>>) {
    for (const line of [response.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    const csrf = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
    if (csrf) this.csrf = csrf;
    return response;
  }

  async get(url: string) {
    return this.keep(await web.inject({ method: 'GET', url, headers: { cookie: this.header() } }));
  }

  async post(url: string, form: Record<string, string | string[]>) {
    const body = new URLSearchParams({ _csrf: this.csrf });
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    const headers = { cookie: this.header(), 'content-type': 'application/x-www-form-urlencoded', origin: WEB_URL };
    return this.keep(await web.inject({ method: 'POST', url, headers, payload: body.toString() }));
  }

  static async loggedIn(who: SchedulingUserDoc): Promise<Browser> {
    const browser = new Browser();
    await browser.get('/login');
    const login = await browser.post('/login', { email: who.email, password: TEST_PASSWORD });
    expect(login.statusCode).toBe(303);
    await browser.get('/settings/developer/oauth');
    return browser;
  }
}

const testId = (body: string, id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(body)?.[1];
const clientPage = (id: string) => `/settings/developer/oauth/${id}`;
const form = {
  name: 'Page Sync',
  logo_url: '',
  website_url: 'https://app.example.com',
  purpose: 'Syncs bookings.',
  redirect_uris: REDIRECT,
  scopes: ['BOOKING_READ'],
};

async function register(dev: Browser) {
  const created = await dev.post('/settings/developer/oauth', { ...form, kind: 'confidential' });
  expect(created.statusCode).toBe(200);
  return { clientId: testId(created.body, 'client-id')!, secret: testId(created.body, 'client-secret')! };
}

async function review(clientId: string, decision: 'accepted' | 'rejected', reason = '') {
  const reviewer = await Browser.loggedIn(admin);
  const page = await reviewer.get('/settings/admin/oauth');
  expect(page.body).toContain(`data-testid="review-${clientId}"`);
  const reviewed = await reviewer.post(`/settings/admin/oauth/${clientId}/review`, { decision, reason });
  expect([reviewed.statusCode, reviewed.headers.location]).toEqual([303, '/settings/admin/oauth']);
  return reviewer;
}

async function status(dev: Browser, clientId: string) {
  return testId((await dev.get(clientPage(clientId))).body, 'client-status');
}

beforeAll(async () => {
  stack = await startOAuthStack();
  web = await startOAuthWeb(stack);
  developer = await stack.newUser();
  admin = await stack.newUser('admin');
  user = await stack.newUser();
}, 120_000);

afterAll(async () => {
  await web?.close();
  await stack?.close();
});

describe('developer settings and review pages', () => {
  it('shows a new secret once; editing the name or a redirect URI of an accepted client sends it back to review', async () => {
    const dev = await Browser.loggedIn(developer);
    const { clientId, secret } = await register(dev);
    expect(secret).toMatch(/^cal_secret_/);
    const list = await dev.get('/settings/developer/oauth');
    expect(list.body).toContain(`<code>${clientId}</code>`);
    const page = await dev.get(clientPage(clientId));
    expect(testId(page.body, 'client-status')).toBe('pending');
    expect(page.body).toContain(`…${secret.slice(-4)}`);
    for (const body of [page.body, list.body]) expect(body).not.toContain(secret);

    await review(clientId, 'accepted');
    expect(await status(dev, clientId)).toBe('accepted');
    // Saving the form unchanged is not a change.
    expect((await dev.post(clientPage(clientId), form)).statusCode).toBe(303);
    expect(await status(dev, clientId)).toBe('accepted');

    const renamed = await dev.post(clientPage(clientId), { ...form, name: 'Page Sync 2' });
    expect([renamed.statusCode, renamed.headers.location]).toEqual([303, clientPage(clientId)]);
    const after = await dev.get(clientPage(clientId));
    expect([testId(after.body, 'client-status'), /<h1>([^<]*)<\/h1>/.exec(after.body)?.[1]]).toEqual([
      'pending',
      'Page Sync 2',
    ]);

    await review(clientId, 'accepted');
    expect(await status(dev, clientId)).toBe('accepted');
    await dev.post(clientPage(clientId), {
      ...form,
      name: 'Page Sync 2',
      redirect_uris: `${REDIRECT}\nhttps://app.example.com/other`,
    });
    expect(await status(dev, clientId)).toBe('pending');
    expect((await stack.store.getClient(clientId))?.redirect_uris).toEqual([REDIRECT, 'https://app.example.com/other']);
  });

  it('rejects through the admin page: the owner sees the status and the reason, is e-mailed, and users cannot authorize it', async () => {
    const dev = await Browser.loggedIn(developer);
    const { clientId } = await register(dev);
    const reviewer = await review(clientId, 'rejected', 'The purpose is too vague.');
    expect((await reviewer.get('/settings/admin/oauth')).body).not.toContain(`review-${clientId}`);

    const page = await dev.get(clientPage(clientId));
    expect(testId(page.body, 'client-status')).toBe('rejected');
    expect(page.body).toContain('The purpose is too vague.');
    const mail = await waitForMail(developer.email, 'was rejected');
    expect(await messageText(mail.ID)).toContain('The purpose is too vague.');

    const visitor = await Browser.loggedIn(user);
    const authorize = await visitor.get(
      `/auth/oauth2/authorize?${new URLSearchParams({ client_id: clientId, redirect_uri: REDIRECT, scope: 'BOOKING_READ' }).toString()}`,
    );
    expect(authorize.statusCode).toBe(400);
    expect(testId(authorize.body, 'authorize-error')).toBe('This OAuth client has not been approved yet.');
  });

  it('refuses a third secret until one is revoked; then a new one is shown and works at the token endpoint, the revoked one not', async () => {
    const dev = await Browser.loggedIn(developer);
    const { clientId, secret: first } = await register(dev);
    await review(clientId, 'accepted');
    const second = await dev.post(`${clientPage(clientId)}/secrets`, {});
    expect(second.statusCode).toBe(200);
    expect(testId(second.body, 'client-secret')).toMatch(/^cal_secret_/);

    const refused = await dev.post(`${clientPage(clientId)}/secrets`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('at most 2 active secrets');
    expect(refused.body).not.toContain('cal_secret_');

    const page = await dev.get(clientPage(clientId));
    const firstId = new RegExp(
      `…${first.slice(-4)}</code>[^<]*<form method="post" action="[^"]*/secrets/([^/"]+)/revoke"`,
    ).exec(page.body)?.[1];
    expect(firstId).toBeDefined();
    expect((await dev.post(`${clientPage(clientId)}/secrets/${firstId}/revoke`, {})).statusCode).toBe(303);
    const third = await dev.post(`${clientPage(clientId)}/secrets`, {});
    expect(third.statusCode).toBe(200);
    const newest = testId(third.body, 'client-secret')!;
    expect(newest).toMatch(/^cal_secret_/);
    expect((await stack.store.getClient(clientId))?.secrets.map((s) => s.hash)).toEqual(
      [testId(second.body, 'client-secret')!, newest].map((s) => stack.credentials.hashClientSecret(s)),
    );

    // A user consents on the real pages; the client exchanges the code with each secret.
    const visitor = await Browser.loggedIn(user);
    const params = { client_id: clientId, redirect_uri: REDIRECT, scope: 'BOOKING_READ', state: 'st' };
    expect((await visitor.get(`/auth/oauth2/authorize?${new URLSearchParams(params).toString()}`)).statusCode).toBe(
      200,
    );
    const allowed = await visitor.post('/auth/oauth2/authorize', { ...params, decision: 'allow' });
    const code = new URL(allowed.headers.location as string).searchParams.get('code')!;
    const exchange = async (secret: string) => {
      const response = await stack.gateway.inject({
        method: 'POST',
        url: '/v2/auth/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: clientId,
          client_secret: secret,
          code,
          redirect_uri: REDIRECT,
        }).toString(),
      });
      return [response.statusCode, (JSON.parse(response.body) as Record<string, unknown>)['error']];
    };
    expect(await exchange(first)).toEqual([401, 'invalid_client']);
    expect(await exchange(newest)).toEqual([200, undefined]);
  });
});

describe('team invite links', () => {
  it('lets a logged-in user join the team of a valid link, once; an unknown link is a 404 page', async () => {
    const token = stack.accessTokens.issue({
      sub: developer._id,
      cid: 'cal_test',
      gid: 'grt_invite',
      scp: ['TEAM_PROFILE_WRITE', 'TEAM_MEMBERSHIP_WRITE', 'TEAM_MEMBERSHIP_READ'],
      legacy: false,
    }).token;
    const api = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const response = await stack.gateway.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      return JSON.parse(response.body) as { data: Record<string, unknown> & Array<Record<string, unknown>> };
    };
    const team = (await api('POST', '/v2/teams', { name: 'Invite <Team>' })).data;
    const invite = (await api('POST', `/v2/teams/${String(team['id'])}/invite`, {})).data;
    expect(invite['inviteLink']).toBe(`${WEB_URL}/teams/invite?token=${String(invite['token'])}`);

    const anonymous = await web.inject({ method: 'GET', url: `/teams/invite?token=${String(invite['token'])}` });
    expect(anonymous.statusCode).toBe(303);
    const joiner = await Browser.loggedIn(user);
    const page = await joiner.get(`/teams/invite?token=${String(invite['token'])}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Join Invite &lt;Team&gt;</h1>');
    const joined = await joiner.post('/teams/invite', { token: String(invite['token']) });
    expect(joined.statusCode).toBe(200);
    expect(testId(joined.body, 'joined')).toBe('You are now a member of the team Invite &lt;Team&gt;.');
    await joiner.post('/teams/invite', { token: String(invite['token']) });
    const members = (await api('GET', `/v2/teams/${String(team['id'])}/memberships`)).data;
    expect(members.filter((m) => m['userId'] === user._id)).toEqual([
      expect.objectContaining({ role: 'MEMBER', accepted: true }),
    ]);

    expect((await joiner.get('/teams/invite?token=not-a-token')).statusCode).toBe(404);
    const forged = await web.inject({
      method: 'POST',
      url: '/teams/invite',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: WEB_URL },
      payload: `token=${String(invite['token'])}`,
    });
    expect(forged.statusCode).toBe(403);
  });
});

describe('sessions', () => {
  it('live in Redis under the SHA-256 of their id, their idle time renewed on every request, until logout', async () => {
    const browser = await Browser.loggedIn(user);
    const signed = decodeURIComponent(browser.cookie('sid')!);
    const id = signed.slice(0, signed.lastIndexOf('.'));
    const key = `${stack.name}:web:session:${createHash('sha256').update(id).digest('hex')}`;
    const stored = await stack.redis.get(key);
    expect(stored).not.toContain(id);
    expect(JSON.parse(stored!)).toEqual({ userId: user._id, _csrf: expect.any(String) });

    await stack.redis.expire(key, 5);
    expect((await browser.get('/settings/developer/oauth')).statusCode).toBe(200);
    expect(await stack.redis.ttl(key)).toBeGreaterThan(3000);

    expect((await browser.post('/logout', {})).statusCode).toBe(303);
    expect(await stack.redis.exists(key)).toBe(0);
    expect(browser.cookie('sid')).toBeUndefined();
    expect((await browser.get('/settings/developer/oauth')).statusCode).toBe(303);
  });
});
