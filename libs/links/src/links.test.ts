import { describe, expect, it } from 'vitest';
import { HASH_LENGTH, keywordProblem, randomHash } from './back-half.js';
import { decodeSearchAfter, encodeSearchAfter, hostAndPath, readLinkListQuery } from './list-query.js';
import { readLongUrl } from './long-url.js';
import { SHORTLINK_ID_PATTERN, isBrandedDomain, parseShortlinkId } from './shortlink-id.js';

const own = new Set(['sho.rt', 'go.acme.com']);

describe('long URLs', () => {
  it('takes http(s) URLs, completing a missing scheme as Bitly does', () => {
    expect(readLongUrl('https://example.com/a?b=1#c', own)).toEqual({ ok: true, url: 'https://example.com/a?b=1#c' });
    expect(readLongUrl('  example.com/path ', own)).toEqual({ ok: true, url: 'http://example.com/path' });
  });

  it('refuses what cannot be a destination, naming why', () => {
    for (const bad of [
      '',
      'ftp://example.com/x',
      'javascript:alert(1)',
      'http://nodots/x',
      'https://user:pw@example.com/',
      `https://example.com/${'a'.repeat(2100)}`,
      42,
    ]) {
      expect(readLongUrl(bad, own)).toMatchObject({ ok: false, problem: 'INVALID_ARG_LONG_URL' });
    }
  });

  it('refuses a link of our own short domains', () => {
    expect(readLongUrl('https://sho.rt/abc', own)).toMatchObject({ ok: false, problem: 'ALREADY_A_SHORTLINK' });
    expect(readLongUrl('http://GO.ACME.COM/x', own)).toMatchObject({ ok: false, problem: 'ALREADY_A_SHORTLINK' });
  });
});

describe('back-halves', () => {
  it('are random base62 strings of the configured length', () => {
    const hashes = new Set(Array.from({ length: 2000 }, () => randomHash()));
    expect(hashes.size).toBe(2000);
    for (const h of hashes) expect(h).toMatch(new RegExp(`^[0-9A-Za-z]{${HASH_LENGTH}}$`));
  });

  it('checks keywords', () => {
    expect(keywordProblem('spring-sale_2026')).toBeNull();
    expect(keywordProblem('has space')).not.toBeNull();
    expect(keywordProblem('healthz')).toMatch(/reserved/);
    expect(keywordProblem('')).not.toBeNull();
  });
});

describe('short link ids', () => {
  it('reads domain and back-half, encoded or not, with or without a scheme', () => {
    expect(parseShortlinkId('sho.rt/Ab3')).toEqual({ domain: 'sho.rt', hash: 'Ab3' });
    expect(parseShortlinkId('sho.rt%2FAb3')).toEqual({ domain: 'sho.rt', hash: 'Ab3' });
    expect(parseShortlinkId('https://Go.Acme.com/spring')).toEqual({ domain: 'go.acme.com', hash: 'spring' });
    expect(parseShortlinkId('nohash')).toBeNull();
    expect(parseShortlinkId('sho.rt/a/b')).toBeNull();
  });

  it('limits branded domains to 32 characters', () => {
    expect(isBrandedDomain('go.acme.com')).toBe(true);
    expect(isBrandedDomain(`${'a'.repeat(30)}.io`)).toBe(false);
    expect(isBrandedDomain('not a domain')).toBe(false);
  });
});

describe('the group link list query', () => {
  it('matches hostname_path_query on host and path only: scheme, query and fragment are ignored', () => {
    expect(hostAndPath('HTTPS://Example.com/Spring?utm=1#top')).toBe('example.com/spring');
    expect(hostAndPath('example.com#x')).toBe('example.com');
    expect(hostAndPath('?utm=1')).toBeNull();
    expect(hostAndPath(null)).toBeNull();
  });

  it("has the spec's defaults", () => {
    expect(readLinkListQuery({})).toEqual({
      ok: true,
      value: {
        size: 50,
        page: 1,
        searchAfter: null,
        query: null,
        hostnamePathQuery: null,
        createdBefore: null,
        createdAfter: null,
        archived: 'off',
        deeplinks: 'both',
        domainDeeplinks: 'both',
        campaignGuid: null,
        channelGuid: null,
        customShortlink: 'both',
        hasQrCodes: 'both',
        tags: [],
        launchpadIds: [],
        encodingLogin: [],
      },
    });
  });

  it('reads lists repeated or comma-separated and round-trips search_after tokens', () => {
    const token = encodeSearchAfter({ createdAt: 1_780_000_000_000, id: 'sho.rt/abc' });
    const read = readLinkListQuery({ tags: ['a,b', 'c'], archived: 'both', size: '10', search_after: token });
    expect(read).toMatchObject({
      ok: true,
      value: {
        tags: ['a', 'b', 'c'],
        archived: 'both',
        size: 10,
        searchAfter: { createdAt: 1_780_000_000_000, id: 'sho.rt/abc' },
      },
    });
    expect(decodeSearchAfter('garbage')).toBeNull();
  });

  it('names every bad value', () => {
    const read = readLinkListQuery({ size: '0', archived: 'maybe', created_before: 'yesterday', search_after: 'x' });
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect(read.problems.map((p) => p.field).sort()).toEqual(['archived', 'created_before', 'search_after', 'size']);
  });
});

describe('SHORTLINK_ID_PATTERN', () => {
  it('matches only ids parseShortlinkId reads', () => {
    const pattern = new RegExp(SHORTLINK_ID_PATTERN, 'u');
    const ids = [
      'sho.rt/Ab3',
      'HTTPS://Sho.Rt/abc_-1',
      'http://localhost:3006/x',
      'LocalHost/x',
      'a.b.c.example/' + 'x'.repeat(100),
      'sho.rt/' + 'x'.repeat(101),
      'sho.rt/',
      '/abc',
      'sho.rt',
      'sho..rt/abc',
      '-a.rt/abc',
      'a-.rt/abc',
      'sho.1t/abc',
      'sho.rt/a/b',
      'sho.rt/a.b',
      'ftp://sho.rt/abc',
      `${'a'.repeat(63)}.rt/abc`,
      `${'a'.repeat(64)}.rt/abc`,
    ];
    for (const id of ids) expect([id, pattern.test(id)]).toEqual([id, parseShortlinkId(id) !== null]);
  });
});
