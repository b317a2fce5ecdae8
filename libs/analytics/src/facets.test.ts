import { describe, expect, it } from 'vitest';
import { cityKey, decodeKey, encodeKey, readCityKey } from './facets.js';
import { readReferrer } from './referrer.js';
import { readUserAgent } from './user-agent.js';

describe('referrers', () => {
  it('names direct clicks direct', () => {
    for (const r of [null, '', '  ', 'not a url', 'about:blank']) {
      expect(readReferrer(r)).toEqual({ url: 'direct', name: 'direct', domain: 'direct', network: 'direct' });
    }
  });

  it('drops the query and fragment, names the domain and network', () => {
    expect(readReferrer('https://t.co/abc?utm=1#x')).toEqual({
      url: 'https://t.co/abc',
      name: 'Twitter',
      domain: 't.co',
      network: 'twitter',
    });
    expect(readReferrer('https://www.Facebook.com/')).toEqual({
      url: 'https://www.facebook.com/',
      name: 'Facebook',
      domain: 'facebook.com',
      network: 'facebook',
    });
    expect(readReferrer('https://l.facebook.com/l.php?u=x').network).toBe('facebook');
    expect(readReferrer('https://mail.google.com/mail/u/0/').name).toBe('Gmail');
    expect(readReferrer('https://www.google.co.uk/').network).toBe('google');
    expect(readReferrer('https://blog.example.com/post/1?a=b')).toEqual({
      url: 'https://blog.example.com/post/1',
      name: 'blog.example.com',
      domain: 'blog.example.com',
      network: 'other',
    });
    expect(readReferrer('android-app://com.google.android.gm/').domain).toBe('com.google.android.gm');
  });
});

describe('user agents', () => {
  it('reads device type, OS and browser', () => {
    expect(
      readUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
      ),
    ).toEqual({ device: 'Mobile', os: 'iOS', browser: 'Safari', bot: false });
    expect(
      readUserAgent(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
      ),
    ).toEqual({ device: 'Desktop', os: 'Windows', browser: 'Chrome', bot: false });
    expect(
      readUserAgent(
        'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
      ).device,
    ).toBe('Tablet');
  });

  it('flags crawlers, scripts and a missing user agent as bots', () => {
    expect(readUserAgent('Googlebot/2.1 (+http://www.google.com/bot.html)').bot).toBe(true);
    expect(readUserAgent('curl/8.4.0').bot).toBe(true);
    expect(readUserAgent(null)).toEqual({ device: 'Other', os: 'Unknown', browser: 'Unknown', bot: true });
  });
});

describe('facet keys', () => {
  it('escape what field names may not hold, and back', () => {
    for (const value of ['https://t.co/a.b', '$where', '100%', '', 'a\u0000b', 'plain']) {
      const key = encodeKey(value);
      expect(key).not.toMatch(/[.$]/);
      expect(key).not.toContain('\u0000');
      expect(key.length).toBeGreaterThan(0);
      expect(decodeKey(key)).toBe(value);
    }
  });

  it('keep a city with its subdivisions', () => {
    const key = cityKey({ city: 'Bracknell', subregion: 'Bracknell Forest', region: 'England', country: 'GB' });
    expect(readCityKey(decodeKey(encodeKey(key)))).toEqual({
      city: 'Bracknell',
      subregion: 'Bracknell Forest',
      region: 'England',
      country: 'GB',
    });
  });
});
