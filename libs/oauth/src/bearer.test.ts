import { describe, expect, it } from 'vitest';
import { createAccessTokens } from './access-tokens.js';
import { createBearerCheck, tokenHasScope } from './bearer.js';

const accessTokens = createAccessTokens({ keys: ['k'.repeat(32)] });
const revoked = new Set<string>();
const bearer = createBearerCheck({ accessTokens, revocations: { isRevoked: (id) => revoked.has(id) } });
const claims = { sub: 'u', cid: 'c', gid: 'g1', scp: ['ORG_PROFILE_READ'], legacy: false };

describe('bearer check', () => {
  it('accepts a valid token and refuses missing, malformed, non-bearer and revoked ones', () => {
    const { token } = accessTokens.issue(claims);
    expect(bearer.verify(`Bearer ${token}`)).toMatchObject(claims);
    expect(() => bearer.verify(undefined)).toThrow(expect.objectContaining({ code: 'missing_token' }));
    for (const header of [`Basic ${token}`, 'Bearer', `Bearer ${token}x`, `Bearer cal_rt_abc`]) {
      expect(() => bearer.verify(header), header).toThrow(expect.objectContaining({ code: 'invalid_token' }));
    }
    revoked.add('g1');
    expect(() => bearer.verify(`Bearer ${token}`)).toThrow(expect.objectContaining({ code: 'invalid_token' }));
  });

  it('checks scopes with ORG_ implying TEAM_, and lets legacy tokens pass', () => {
    const held = { ...claims, exp: 0 };
    expect(tokenHasScope(held, 'TEAM_PROFILE_READ')).toBe(true);
    expect(tokenHasScope(held, 'ORG_PROFILE_READ')).toBe(true);
    expect(tokenHasScope(held, 'TEAM_PROFILE_WRITE')).toBe(false);
    expect(tokenHasScope({ ...held, scp: ['TEAM_PROFILE_READ'] }, 'ORG_PROFILE_READ')).toBe(false);
    expect(tokenHasScope({ ...held, scp: [], legacy: true }, 'ORG_BOOKING_READ')).toBe(true);
  });
});
