import { describe, expect, it } from 'vitest';
import { changeNeedsReview, statusAfterChange, type ReviewedFields } from './client-review.js';

const client: ReviewedFields = {
  name: 'Acme',
  logoUrl: 'https://acme.example/logo.png',
  websiteUrl: 'https://acme.example',
  purpose: 'Sync bookings',
  redirectUris: ['https://acme.example/cb'],
  scopes: ['BOOKING_WRITE', 'PROFILE_READ'],
};
const legacy: ReviewedFields = { ...client, scopes: ['READ_BOOKING'] };

describe('client review transitions', () => {
  it.each<[string, Partial<ReviewedFields>]>([
    ['name', { name: 'Acme 2' }],
    ['logo', { logoUrl: 'https://acme.example/new.png' }],
    ['website URL', { websiteUrl: 'https://acme.example/home' }],
    ['purpose', { purpose: 'Sync bookings and profiles' }],
    ['a redirect URI', { redirectUris: ['https://acme.example/callback'] }],
    ['an added redirect URI', { redirectUris: ['https://acme.example/cb', 'https://acme.example/cb2'] }],
    ['an expanded scope set', { scopes: ['BOOKING_WRITE', 'PROFILE_READ', 'SCHEDULE_READ'] }],
    ['a _READ added while its _WRITE is granted', { scopes: ['BOOKING_WRITE', 'BOOKING_READ', 'PROFILE_READ'] }],
    ['a removed scope', { scopes: ['BOOKING_WRITE'] }],
  ])('sends an accepted client back to pending when the owner changes %s', (_what, change) => {
    expect(changeNeedsReview(client, { ...client, ...change })).toBe(true);
    expect(statusAfterChange('accepted', client, { ...client, ...change })).toBe('pending');
  });

  it('keeps an accepted client accepted when nothing reviewable changed', () => {
    expect(statusAfterChange('accepted', client, { ...client, scopes: ['PROFILE_READ', 'BOOKING_WRITE'] })).toBe(
      'accepted',
    );
  });

  it('re-reviews a legacy client that gains TEAM_ or ORG_ scopes, not one that gains only user-level scopes', () => {
    expect(statusAfterChange('accepted', legacy, { ...legacy, scopes: ['READ_BOOKING', 'BOOKING_READ'] })).toBe(
      'accepted',
    );
    expect(statusAfterChange('accepted', legacy, { ...legacy, scopes: ['READ_BOOKING', 'TEAM_PROFILE_READ'] })).toBe(
      'pending',
    );
    expect(statusAfterChange('accepted', legacy, { ...legacy, scopes: ['READ_BOOKING', 'ORG_BOOKING_READ'] })).toBe(
      'pending',
    );
  });

  it('resubmits a changed rejected client', () => {
    expect(statusAfterChange('rejected', client, { ...client, purpose: 'Clearer purpose' })).toBe('pending');
  });
});
