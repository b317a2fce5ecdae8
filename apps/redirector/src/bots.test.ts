import { describe, expect, it } from 'vitest';
import { isBot } from './bots.js';

describe('isBot', () => {
  it.each([
    'curl/8.5.0',
    'python-requests/2.31',
    'Go-http-client/1.1',
    'facebookexternalhit/1.1',
    'Slackbot-LinkExpanding 1.0',
    'WhatsApp/2.23',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36',
  ])('takes %s for a bot', (ua) => {
    expect(isBot(ua)).toBe(true);
  });

  it('takes a browser for a person, and no user agent for a bot', () => {
    const chrome =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    expect(isBot(chrome)).toBe(false);
    expect(isBot(chrome)).toBe(false);
    expect(isBot(undefined)).toBe(true);
    expect(isBot('')).toBe(true);
  });
});
