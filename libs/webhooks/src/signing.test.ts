import { describe, expect, it } from 'vitest';
import { standardSignature, verifyStandardSignature, verifyWorkosSignature, workosSignature } from './signing.js';

describe('webhook signatures', () => {
  it('matches the Standard Webhooks known-answer vector', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = standardSignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    expect(
      verifyStandardSignature(
        { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: '1614265330', signature: `v1,bogus ${signature}` },
        '{"test": 2432232314}',
        [secret],
        { nowSeconds: 1614265330 },
      ),
    ).toBe(true);
  });

  it('signs and verifies the WorkOS header, refusing tampering and stale timestamps', () => {
    const header = workosSignature('whsec_abc', 1_700_000_000_000, '{"a":1}');
    expect(header).toMatch(/^t=1700000000000, v1=[0-9a-f]{64}$/);
    expect(verifyWorkosSignature(header, '{"a":1}', 'whsec_abc', { now: 1_700_000_000_000 })).toBe(true);
    expect(verifyWorkosSignature(header, '{"a":2}', 'whsec_abc', { now: 1_700_000_000_000 })).toBe(false);
    expect(verifyWorkosSignature(header, '{"a":1}', 'whsec_abd', { now: 1_700_000_000_000 })).toBe(false);
    expect(verifyWorkosSignature(header, '{"a":1}', 'whsec_abc', { now: 1_700_000_600_000 })).toBe(false);
  });
});
