import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack.js';

let stack: OAuthStack;

beforeAll(async () => {
  stack = await startOAuthStack({ failureLimits: { perIp: 3, perClient: 1000, windowSeconds: 60 } });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('token endpoint brute-force protection', () => {
  it('answers 429 with Retry-After once an IP has failed too often, before looking at the request', async () => {
    const attempt = (remoteAddress: string) =>
      stack.gateway.inject({
        method: 'POST',
        url: '/v2/auth/oauth2/token',
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: 'cl_guess',
          client_secret: 'guess',
          refresh_token: 'cal_rt_guess',
        }).toString(),
      });
    for (let i = 0; i < 3; i++) expect((await attempt('10.1.1.1')).statusCode).toBe(401);
    const blocked = await attempt('10.1.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(JSON.parse(blocked.body)).toEqual({
      error: 'too_many_requests',
      error_description: 'Too many failed token requests; try again later.',
    });
    // Another address is not affected.
    expect((await attempt('10.2.2.2')).statusCode).toBe(401);
  });
});
