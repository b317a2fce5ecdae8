import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import * as oauth from 'oauth4webapi';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { messageText, waitForMail } from '../support/mailbox.js';
import { TEST_OAUTH_SECRETS, TEST_SECRETS } from '../support/secrets.js';

// The three apps as real processes, users from the real CLI, the real pages in Debian's Chromium, and the
// token exchange done by an unmodified OAuth client library (oauth4webapi), as a third-party app would.
const run = promisify(execFile);
const name = uniqueName('e2eoauth');
const PASSWORD = 'correct horse battery staple';
const processes: ManagedProcess[] = [];
let web: string;
let api: string;
let callback: string;
let callbackServer: Server;
let browser: Browser;
const people = { developer: '', admin: '', user: '' };
let cliEnv: Record<string, string> = {};

const crashed = () =>
  processes.filter((p) => p.exited()).map((p) => `${p.name} exited:\n${p.output().slice(-2000)}`)[0];
const insecure = { [oauth.allowInsecureRequests]: true };

async function createUser(role: 'developer' | 'admin' | 'user', env: Record<string, string>) {
  const email = `${role}-${name}@example.com`;
  const args = [
    'apps/cli/dist/main.js',
    'users',
    'create',
    '--email',
    email,
    '--name',
    `The ${role}`,
    ...(role === 'admin' ? ['--admin'] : []),
  ];
  const child = run(process.execPath, args, { env: { ...process.env, ...env } });
  child.child.stdin?.end(`${PASSWORD}\n`);
  const { stdout } = await child;
  expect(stdout.trim()).toMatch(/^usr_/);
  people[role] = email;
}

async function loggedIn(role: keyof typeof people): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${web}/login`);
  await login(page, role);
  return page;
}

async function login(page: Page, role: keyof typeof people) {
  await page.locator('#login input[name="email"]').fill(people[role]);
  await page.locator('#login input[name="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForLoadState();
}

async function registerClient(page: Page, kind: 'confidential' | 'public', scopes: string[]) {
  await page.goto(`${web}/settings/developer/oauth/new`);
  const form = page.locator('#client-form');
  await form.locator('input[name="name"]').fill(`Sync ${kind}`);
  await form.locator('input[name="website_url"]').fill('https://app.example.com');
  await form.locator('textarea[name="purpose"]').fill('Keeps bookings in sync with our CRM.');
  await form.locator('textarea[name="redirect_uris"]').fill(callback);
  await form.locator(`input[name="kind"][value="${kind}"]`).check();
  for (const scope of scopes) await form.locator(`input[name="scopes"][value="${scope}"]`).check();
  await page.getByRole('button', { name: 'Register client' }).click();
  await page.waitForLoadState();
  const clientId = (await page.getByTestId('client-id').textContent())!.trim();
  const secret = kind === 'confidential' ? (await page.getByTestId('client-secret').textContent())!.trim() : undefined;
  return { clientId, secret };
}

async function accept(clientId: string) {
  const admin = await loggedIn('admin');
  await admin.goto(`${web}/settings/admin/oauth`);
  await admin.getByTestId(`review-${clientId}`).getByRole('button', { name: 'Accept' }).click();
  await admin.waitForLoadState();
  await admin.context().close();
}

/** The user's browser: authorization URL -> login -> consent -> Allow -> redirect to the client's callback. */
async function consent(page: Page, url: URL, options: { login?: boolean } = {}): Promise<URL> {
  await page.goto(url.toString());
  if (options.login) await login(page, 'user');
  expect(await page.locator('h1').innerText()).toContain('Authorize');
  await Promise.all([
    page.waitForURL((u) => u.toString().startsWith(callback)),
    page.getByRole('button', { name: 'Allow' }).click(),
  ]);
  return new URL(page.url());
}

async function discover(): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(api);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
}

async function me(accessToken: string) {
  const response = await fetch(`${api}/v2/me`, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  const [webPort, apiPort] = [await freePort(), await freePort()];
  web = `http://127.0.0.1:${webPort}`;
  api = `http://127.0.0.1:${apiPort}`;
  callbackServer = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('client callback'),
  );
  await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;

  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    ...TEST_OAUTH_SECRETS,
    WEB_PUBLIC_URL: web,
    PUBLIC_BASE_URL: api,
    OAUTH_ISSUER: api,
    PUBLIC_URL: web,
  });
  processes.push(startProcess('oauth-worker', 'apps/oauth-worker/dist/main.js', { ...env, OUTBOX_INTERVAL_MS: '200' }));
  // The review outcome e-mails are the notifier's.
  processes.push(
    startProcess('notifier', 'apps/notifier/dist/main.js', {
      ...env,
      OUTBOX_INTERVAL_MS: '200',
      NOTIFIER_SWEEP_MS: '200',
    }),
  );
  processes.push(
    startProcess('scheduling-worker', 'apps/scheduling-worker/dist/main.js', { ...env, OUTBOX_INTERVAL_MS: '200' }),
  );
  processes.push(
    startProcess('scheduling-gateway', 'apps/scheduling-gateway/dist/main.js', { ...env, PORT: String(apiPort) }),
  );
  processes.push(startProcess('scheduling-web', 'apps/scheduling-web/dist/main.js', { ...env, PORT: String(webPort) }));
  for (const base of [api, web]) {
    await waitFor(async () => (await fetch(`${base}/readyz`)).ok, {
      what: `${base} ready`,
      timeoutMs: 60_000,
      failFast: crashed,
    });
  }
  await Promise.all((['developer', 'admin', 'user'] as const).map((role) => createUser(role, env)));
  cliEnv = env;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await new Promise((resolve) => callbackServer?.close(resolve));
});

describe('OAuth in the browser, end to end', () => {
  it('confidential client: register, review with e-mail, consent, exchange, /v2/me, refresh, rotate the secret', async () => {
    const developer = await loggedIn('developer');
    const { clientId, secret } = await registerClient(developer, 'confidential', ['BOOKING_READ', 'BOOKING_WRITE']);
    expect(secret).toMatch(/^cal_secret_/);
    expect(clientId).toMatch(/^cal_client_/);
    // The id shown with the secret is the one the developer's client list holds for this client.
    await developer.goto(`${web}/settings/developer/oauth`);
    const row = developer
      .locator('tbody tr')
      .filter({ has: developer.getByRole('link', { name: 'Sync confidential' }) });
    expect(await row.locator('code').allInnerTexts()).toEqual([clientId]);

    await accept(clientId);
    const mail = await waitForMail(people.developer, 'was accepted');
    expect(await messageText(mail.ID)).toContain(clientId);
    await developer.goto(`${web}/settings/developer/oauth/${clientId}`);
    expect((await developer.getByTestId('client-status').innerText()).trim()).toBe('accepted');

    const as = await discover();
    const client: oauth.Client = { client_id: clientId };
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      redirect_uri: callback,
      response_type: 'code',
      scope: 'BOOKING_READ,BOOKING_WRITE',
      state,
    })) {
      url.searchParams.set(k, v);
    }
    const page = await (await browser.newContext()).newPage();
    const returned = await consent(page, url, { login: true });
    const params = oauth.validateAuthResponse(as, client, returned, state);

    const auth = oauth.ClientSecretPost(secret!);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, auth, params, callback, oauth.nopkce, insecure),
    );
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 1800, scope: 'BOOKING_READ BOOKING_WRITE' });
    const profile = await me(tokens.access_token);
    expect(profile).toMatchObject({ status: 200, body: { status: 'success', data: { email: people.user } } });

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure),
    );
    expect(refreshed.scope).toBe('BOOKING_READ BOOKING_WRITE');
    expect((await me(refreshed.access_token)).status).toBe(200);

    // Rotation: a second secret, both work, the first revoked; issued tokens keep working.
    await developer.goto(`${web}/settings/developer/oauth/${clientId}`);
    await developer.getByRole('button', { name: 'Generate a new secret' }).click();
    const second = (await developer.getByTestId('client-secret').textContent())!.trim();
    expect(second).not.toBe(secret);
    const refreshedAgain = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(second),
        refreshed.refresh_token!,
        insecure,
      ),
    );
    await developer.goto(`${web}/settings/developer/oauth/${clientId}`);
    await developer.getByRole('button', { name: 'Revoke' }).first().click();
    await developer.waitForLoadState();
    const withOld = oauth
      .refreshTokenGrantRequest(as, client, auth, refreshedAgain.refresh_token!, insecure)
      .then((r) => oauth.processRefreshTokenResponse(as, client, r));
    await expect(withOld).rejects.toMatchObject({ error: 'invalid_client', status: 401 });
    expect((await me(refreshedAgain.access_token)).status).toBe(200);
    const withNew = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(second),
        refreshedAgain.refresh_token!,
        insecure,
      ),
    );
    expect((await me(withNew.access_token)).status).toBe(200);
  });

  it('public client: PKCE S256 with no secret', async () => {
    const developer = await loggedIn('developer');
    const { clientId } = await registerClient(developer, 'public', ['BOOKING_READ']);
    await accept(clientId);
    const as = await discover();
    const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: 'none' };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      redirect_uri: callback,
      response_type: 'code',
      scope: 'BOOKING_READ',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })) {
      url.searchParams.set(k, v);
    }
    const page = await loggedIn('user');
    const params = oauth.validateAuthResponse(as, client, await consent(page, url), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callback, verifier, insecure),
    );
    expect((await me(tokens.access_token)).status).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect((await me(refreshed.access_token)).status).toBe(200);
  });

  it('shows client and redirect errors on the page, redirects request errors with state, and denies', async () => {
    const developer = await loggedIn('developer');
    const { clientId } = await registerClient(developer, 'confidential', ['BOOKING_READ']);
    const page = await loggedIn('user');
    const authorize = (params: Record<string, string>) =>
      `${web}/auth/oauth2/authorize?${new URLSearchParams(params).toString()}`;
    const shown = async (params: Record<string, string>, message: string) => {
      const response = await page.goto(authorize(params));
      expect(response?.status()).toBe(400);
      expect(page.url().startsWith(web)).toBe(true);
      expect(await page.getByTestId('authorize-error').innerText()).toContain(message);
    };
    await shown({ client_id: 'cl_unknown', redirect_uri: callback, scope: 'BOOKING_READ' }, 'No OAuth client');
    await shown({ client_id: clientId, redirect_uri: callback, scope: 'BOOKING_READ' }, 'not been approved');
    await accept(clientId);
    await shown(
      { client_id: clientId, redirect_uri: 'https://evil.example.com/callback', scope: 'BOOKING_READ' },
      'redirect_uri',
    );
    await shown({ client_id: clientId, redirect_uri: `${callback}/other`, scope: 'BOOKING_READ' }, 'redirect_uri');
    await shown({ client_id: clientId, redirect_uri: callback }, 'scope parameter is required for this OAuth client');

    const redirected = async (params: Record<string, string>) => {
      await page.goto(authorize(params));
      const url = new URL(page.url());
      expect(url.toString().startsWith(callback)).toBe(true);
      return url.searchParams;
    };
    const notAScope = await redirected({
      client_id: clientId,
      redirect_uri: callback,
      scope: 'BOOKING_READ NOT_A_SCOPE',
      state: 's1',
    });
    expect([notAScope.get('error'), notAScope.get('state')]).toEqual(['invalid_scope', 's1']);
    expect(notAScope.get('error_description')).toContain('not a recognized scope');
    const beyond = await redirected({
      client_id: clientId,
      redirect_uri: callback,
      scope: 'BOOKING_WRITE',
      state: 's2',
    });
    expect([beyond.get('error'), beyond.get('state')]).toEqual(['invalid_request', 's2']);
    expect(beyond.get('error_description')).toContain("exceeds the client's registered scopes");

    await page.goto(authorize({ client_id: clientId, redirect_uri: callback, scope: 'BOOKING_READ', state: 's3' }));
    await Promise.all([
      page.waitForURL((u) => u.toString().startsWith(callback)),
      page.getByRole('button', { name: 'Deny' }).click(),
    ]);
    const denied = new URL(page.url()).searchParams;
    expect([denied.get('error'), denied.get('state'), denied.get('code')]).toEqual(['access_denied', 's3', null]);
  });

  it('refuses form posts without the CSRF token and never redirects off-site after login', async () => {
    const page = await loggedIn('developer');
    const cookies = await page.context().cookies();
    const sid = cookies.find((c) => c.name === 'sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const forged = await fetch(`${web}/settings/developer/oauth`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        name: 'Forged',
        purpose: 'x',
        redirect_uris: callback,
        kind: 'public',
        scopes: 'BOOKING_READ',
      }).toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    await page.goto(`${web}/settings/developer/oauth`);
    expect(await page.locator('body').innerText()).not.toContain('Forged');

    const fresh = await (await browser.newContext()).newPage();
    await fresh.goto(`${web}/login?return_to=${encodeURIComponent('https://evil.example.com/')}`);
    await login(fresh, 'developer');
    expect(fresh.url().startsWith(web)).toBe(true);
    await fresh.goto(`${web}/login?return_to=${encodeURIComponent('//evil.example.com/x')}`);
    await login(fresh, 'developer');
    expect(new URL(fresh.url()).host).toBe(new URL(web).host);
  });
});

describe('the scheduling API with a token from the OAuth flow', () => {
  it('creates a team, adds a member, creates an event type, sets a schedule, books, reschedules and cancels', async () => {
    const scopes = [
      'TEAM_PROFILE_WRITE',
      'TEAM_MEMBERSHIP_WRITE',
      'TEAM_EVENT_TYPE_WRITE',
      'TEAM_BOOKING_READ',
      'ORG_SCHEDULE_WRITE',
    ];
    const developer = await loggedIn('developer');
    const { clientId, secret } = await registerClient(developer, 'confidential', scopes);
    await accept(clientId);
    // The user belongs to an organization (made by the operator), so ORG_ scopes may be granted.
    const { stdout: orgOut } = await run(
      process.execPath,
      ['apps/cli/dist/main.js', 'orgs', 'create', '--name', `Acme ${name}`, '--owner', people.user],
      {
        env: { ...process.env, ...cliEnv },
      },
    );
    const orgId = Number(orgOut.trim());
    expect(orgId).toBeGreaterThan(0);

    const as = await discover();
    const client: oauth.Client = { client_id: clientId };
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: clientId,
      redirect_uri: callback,
      response_type: 'code',
      scope: scopes.join(' '),
      state,
    }))
      url.searchParams.set(k, v);
    const page = await loggedIn('user');
    const params = oauth.validateAuthResponse(as, client, await consent(page, url), state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.ClientSecretPost(secret!),
        params,
        callback,
        oauth.nopkce,
        insecure,
      ),
    );
    expect(tokens.scope).toBe(scopes.join(' '));
    const call = async (method: string, path: string, body?: unknown, bearer: string | null = tokens.access_token) => {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: {
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(20_000),
      });
      return {
        status: response.status,
        body: (await response.json()) as { status: string; data: Record<string, unknown>; error?: { code: string } },
      };
    };
    const userId = (await me(tokens.access_token)).body['data'] as { id: string };
    const developerId = (
      await run(process.execPath, ['apps/cli/dist/main.js', 'users', 'list'], { env: { ...process.env, ...cliEnv } })
    ).stdout
      .split('\n')
      .find((line) => line.includes(people.developer))!
      .split('\t')[0]!;

    const team = await call('POST', '/v2/teams', { name: 'Customer Success' });
    expect(team.status).toBe(201);
    const teamId = team.body.data['id'] as number;
    const added = await call('POST', `/v2/teams/${teamId}/memberships`, {
      userId: developerId,
      role: 'ADMIN',
      accepted: true,
    });
    expect(added).toMatchObject({ status: 201, body: { data: { userId: developerId, role: 'ADMIN' } } });
    const schedule = await call('POST', `/v2/organizations/${orgId}/users/${userId.id}/schedules`, {
      name: 'Office hours',
      timeZone: 'Europe/Berlin',
      availability: [
        { days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], startTime: '09:00', endTime: '17:00' },
      ],
    });
    expect(schedule.status).toBe(201);
    const eventType = await call('POST', `/v2/teams/${teamId}/event-types`, {
      title: 'Onboarding',
      lengthInMinutes: 45,
      hosts: [{ userId: userId.id }],
    });
    expect(eventType.status).toBe(201);
    // A token without the scope is refused, naming it.
    expect((await call('GET', `/v2/teams/${teamId}/event-types`)).body.error?.code).toBe('INSUFFICIENT_SCOPE');

    // A Monday 10:00 in Berlin, at least two days ahead.
    const day = new Date(Date.now() + 3 * 86_400_000);
    day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
    const berlin = (hh: number) => {
      const probe = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hh));
      const offset =
        Number(
          new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: 'numeric', hourCycle: 'h23' }).format(
            probe,
          ),
        ) - hh;
      return new Date(probe.getTime() - offset * 3_600_000).toISOString();
    };
    const attendee = { name: 'Alan', email: 'alan@example.com', timeZone: 'Europe/London' };
    const booking = await call(
      'POST',
      '/v2/bookings',
      { start: berlin(10), eventTypeId: eventType.body.data['id'], attendee },
      null,
    );
    expect(booking).toMatchObject({
      status: 201,
      body: { data: { status: 'accepted', start: berlin(10), duration: 45 } },
    });
    expect(
      (
        await call(
          'POST',
          '/v2/bookings',
          { start: berlin(10), eventTypeId: eventType.body.data['id'], attendee },
          null,
        )
      ).status,
    ).toBe(409);
    expect(
      (
        await call(
          'POST',
          '/v2/bookings',
          { start: berlin(17), eventTypeId: eventType.body.data['id'], attendee },
          null,
        )
      ).status,
    ).toBe(400);
    const uid = booking.body.data['uid'] as string;
    const moved = await call('POST', `/v2/bookings/${uid}/reschedule`, { start: berlin(11) }, null);
    expect(moved).toMatchObject({ status: 200, body: { data: { rescheduledFromUid: uid, start: berlin(11) } } });
    const cancelled = await call(
      'POST',
      `/v2/bookings/${moved.body.data['uid'] as string}/cancel`,
      { cancellationReason: 'Done' },
      null,
    );
    expect(cancelled).toMatchObject({ status: 200, body: { data: { status: 'cancelled' } } });
    const bookings = await call('GET', `/v2/teams/${teamId}/bookings`);
    expect((bookings.body.data as unknown as Array<{ status: string }>).map((b) => b.status)).toEqual([
      'cancelled',
      'cancelled',
    ]);
  });
});
