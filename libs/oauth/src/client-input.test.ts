import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { redirectUriProblem, validateClientInput, type ClientInput } from './client-input.js';

const valid: ClientInput = {
  name: 'Booking Sync',
  logoUrl: null,
  websiteUrl: 'https://example.com',
  purpose: 'Sync bookings',
  redirectUris: ['https://example.com/cb'],
  scopes: ['BOOKING_READ'],
};

function issuesOf(input: Partial<ClientInput>) {
  try {
    validateClientInput({ ...valid, ...input });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).issues.map((i) => `${i.field}:${i.code}`);
  }
}

describe('client registration input', () => {
  it('accepts a valid client and trims what the form sends', () => {
    expect(
      validateClientInput({
        ...valid,
        name: '  Booking Sync ',
        redirectUris: ['https://example.com/cb', '', 'https://example.com/cb'],
      }),
    ).toMatchObject({
      name: 'Booking Sync',
      redirectUris: ['https://example.com/cb'],
    });
  });

  it('requires at least one scope, and only real scopes', () => {
    expect(issuesOf({ scopes: [] })).toEqual(['scopes:required']);
    expect(issuesOf({ scopes: ['BOOKING_READ', 'ADMIN'] })).toEqual(['scopes:invalid_scope']);
  });

  it('allows at most 10 redirect URIs and at least one', () => {
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `https://example.com/cb/${i}`);
    expect(issuesOf({ redirectUris: uris(10) })).toEqual([]);
    expect(issuesOf({ redirectUris: uris(11) })).toEqual(['redirect_uris:too_many']);
    expect(issuesOf({ redirectUris: [] })).toEqual(['redirect_uris:required']);
  });

  it('lists every problem at once', () => {
    expect(issuesOf({ name: '', purpose: '', websiteUrl: 'ftp://x', scopes: [] })).toEqual([
      'name:invalid',
      'purpose:invalid',
      'website_url:invalid_url',
      'scopes:required',
    ]);
  });

  it('holds redirect URIs to https, loopback http, or a reverse-domain app scheme', () => {
    expect(redirectUriProblem('https://app.example.com/cb?x=1')).toBeNull();
    expect(redirectUriProblem('http://localhost:8080/cb')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1/cb')).toBeNull();
    expect(redirectUriProblem('com.example.app:/oauth')).toBeNull();
    for (const bad of [
      'http://example.com/cb',
      'https://example.com/cb#frag',
      'https://user:pw@example.com/',
      'javascript:alert(1)',
      'data:text/html,x',
      'myapp:/cb',
      '/relative',
      'https://exa mple.com',
    ]) {
      expect(redirectUriProblem(bad), bad).not.toBeNull();
    }
  });
});
