import type { HttpApp } from '@platform/http';
import {
  createAccessTokens,
  createBearerCheck,
  createOAuthCredentials,
  requireScope,
  type Scope,
} from '@platform/oauth';
import { createLogger } from '@platform/telemetry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';

// requireScope as the scheduling API will use it: after the bearer check, rendered by this gateway's errors.
const accessTokens = createAccessTokens({ keys: ['k'.repeat(32)] });
const bearer = createBearerCheck({ accessTokens, revocations: { isRevoked: () => false } });
const unused = {} as never;
let app: HttpApp;

beforeAll(async () => {
  app = await buildApp({
    logger: createLogger({ name: 'test', level: 'silent' }),
    readiness: [],
    store: unused,
    scheduling: unused,
    users: unused,
    commands: unused,
    failures: unused,
    accessTokens,
    credentials: createOAuthCredentials('p'.repeat(32)),
    bearer,
    issuer: 'https://api.example.com',
    webUrl: 'https://app.example.com',
  });
  const ok = async () => ({ status: 'success', data: {} });
  app.get(
    '/v2/probe/teams/:teamId',
    { onRequest: bearer.authenticate, preHandler: requireScope('TEAM_PROFILE_READ') },
    ok,
  );
  app.get(
    '/v2/probe/organizations/:orgId/teams',
    { onRequest: bearer.authenticate, preHandler: requireScope('ORG_PROFILE_READ') },
    ok,
  );
  app.get('/v2/unguarded', { preHandler: requireScope('BOOKING_READ') }, ok);
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

async function call(url: string, scp: Scope[], legacy = false) {
  const { token } = accessTokens.issue({ sub: 'usr_1', cid: 'cal_client_1', gid: 'grt_1', scp, legacy });
  const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as unknown,
    challenge: response.headers['www-authenticate'],
  };
}

describe('requireScope', () => {
  it('refuses a token lacking the scope with 403, the API error shape and the missing scope named', async () => {
    const refused = await call('/v2/probe/teams/7', ['BOOKING_READ', 'TEAM_PROFILE_WRITE']);
    expect(refused).toEqual({
      status: 403,
      body: {
        status: 'error',
        error: {
          code: 'INSUFFICIENT_SCOPE',
          message: 'The access token lacks the scope TEAM_PROFILE_READ that this endpoint requires.',
        },
      },
      challenge: 'Bearer realm="api", error="insufficient_scope"',
    });
    expect((await call('/v2/probe/teams/7', ['TEAM_PROFILE_READ'])).status).toBe(200);
  });

  it('lets an ORG_ scope satisfy the matching TEAM_ one, not the other way round', async () => {
    expect((await call('/v2/probe/teams/7', ['ORG_PROFILE_READ'])).status).toBe(200);
    const refused = await call('/v2/probe/organizations/1/teams', ['TEAM_PROFILE_READ']);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error: { code: 'INSUFFICIENT_SCOPE', message: expect.stringContaining('ORG_PROFILE_READ') },
    });
  });

  it('lets tokens of legacy clients pass whatever scopes they hold', async () => {
    expect((await call('/v2/probe/teams/7', [], true)).status).toBe(200);
    expect((await call('/v2/probe/organizations/1/teams', ['READ_BOOKING'], true)).status).toBe(200);
  });

  it('answers 401 when no bearer check ran before it', async () => {
    const response = await app.inject({ method: 'GET', url: '/v2/unguarded' });
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'error', error: { code: 'MISSING_TOKEN' } });
  });
});
