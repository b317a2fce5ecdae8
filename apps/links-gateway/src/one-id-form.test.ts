import { describe, expect, it } from 'vitest';
import { oneIdForm } from './one-id-form.js';

describe('oneIdForm', () => {
  it('splits an id URL-encoded in one segment into domain and hash, on every path under a link', () => {
    expect(oneIdForm('/v4/shortlinks/sho.rt%2Fabc1234')).toBe('/v4/shortlinks/sho.rt/abc1234');
    expect(oneIdForm('/v4/bitlinks/sho.rt%2fabc1234/clicks?unit=day')).toBe(
      '/v4/bitlinks/sho.rt/abc1234/clicks?unit=day',
    );
    expect(oneIdForm('/v4/shortlinks/localhost:3006%2Fabc/referrers_by_domains')).toBe(
      '/v4/shortlinks/localhost:3006/abc/referrers_by_domains',
    );
  });

  it('leaves every other URL as it came', () => {
    for (const url of [
      '/v4/shortlinks/sho.rt/abc1234/clicks',
      '/v4/groups/Ba1/shortlinks?query=a%2Fb',
      '/v4/shortlinks?x=%2F',
      '/v4/qr-codes/Q1%2F2',
      '/v4/expand',
    ])
      expect(oneIdForm(url)).toBe(url);
  });
});
