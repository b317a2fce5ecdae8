import { describe, expect, it } from 'vitest';
import { config } from './config.js';

describe('the webhook settings', () => {
  const env = {
    API_KEY_PEPPER: 'test-pepper-0123456789abcdef',
    SECRETS_SEALING_KEY: 'test-sealing-key-0123456789abcdef',
    NOTIFIER_METHODS: 'smtp,webhook',
    NOTIFIER_WEBHOOK_URL: 'https://hooks.example.com/n',
    NOTIFIER_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
  };

  it('are no limit and no ordering when unset', () => {
    expect(config.read(env).webhook).toMatchObject({ rateLimit: null, ordered: false });
  });

  it('read NOTIFIER_WEBHOOK_RATE_LIMIT and NOTIFIER_WEBHOOK_ORDERED', () => {
    const settings = config.read({ ...env, NOTIFIER_WEBHOOK_RATE_LIMIT: '20', NOTIFIER_WEBHOOK_ORDERED: 'true' });
    expect(settings.webhook).toMatchObject({ rateLimit: 20, ordered: true });
  });

  it('refuse a rate limit that is not a positive whole number, and an ordering that is not a boolean', () => {
    for (const rate of ['0', '-1', 'fast', '10001'])
      expect(() => config.read({ ...env, NOTIFIER_WEBHOOK_RATE_LIMIT: rate }), rate).toThrow(
        /NOTIFIER_WEBHOOK_RATE_LIMIT/,
      );
    expect(() => config.read({ ...env, NOTIFIER_WEBHOOK_ORDERED: 'sometimes' })).toThrow(/NOTIFIER_WEBHOOK_ORDERED/);
  });
});
