import { describe, expect, it } from 'vitest';
import { createAccessTokens } from './access-tokens.js';

const key = 'k'.repeat(32);
const claims = { sub: 'user_1', cid: 'client_1', gid: 'grant_1', scp: ['BOOKING_READ'], legacy: false };

describe('access tokens', () => {
  it('verifies its own tokens and lives 1800 s', () => {
    let t = 1_000_000;
    const tokens = createAccessTokens({ keys: [key], now: () => t });
    const { token, expiresIn } = tokens.issue(claims);
    expect(expiresIn).toBe(1800);
    expect(tokens.verify(token)).toEqual({ ...claims, exp: 1_001_800 });
    t += 1799;
    expect(tokens.verify(token)).not.toBeNull();
    t += 1;
    expect(tokens.verify(token)).toBeNull();
  });

  it('refuses tampered, foreign and malformed tokens', () => {
    const tokens = createAccessTokens({ keys: [key] });
    const { token } = tokens.issue(claims);
    const [body, sig] = token.slice('cal_at_'.length).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, scp: ['ORG_PROFILE_WRITE'], exp: 9e9 })).toString(
      'base64url',
    );
    expect(tokens.verify(`cal_at_${forged}.${sig}`)).toBeNull();
    // A character in the middle: the last one of 43 carries 2 unused bits, so changing it may keep the MAC.
    const middle = 20;
    const flipped = `${sig!.slice(0, middle)}${sig![middle] === 'A' ? 'B' : 'A'}${sig!.slice(middle + 1)}`;
    expect(tokens.verify(`cal_at_${body}.${flipped}`)).toBeNull();
    expect(createAccessTokens({ keys: ['o'.repeat(32)] }).verify(token)).toBeNull();
    for (const bad of ['', 'cal_at_', 'cal_at_.', 'Bearer x', `cal_rt_${body}.${sig}`, 'cal_at_!!!.###'])
      expect(tokens.verify(bad)).toBeNull();
  });

  it('keeps verifying with a retired key after the signing key rotates', () => {
    const old = createAccessTokens({ keys: [key] }).issue(claims).token;
    expect(createAccessTokens({ keys: ['n'.repeat(32), key] }).verify(old)).not.toBeNull();
  });
});
