import { describe, expect, it } from 'vitest';
import { grants, isLegacyScopeSet, isScope, splitScopeList } from './scopes.js';

describe('scopes', () => {
  it('splits on spaces and commas', () => {
    expect(splitScopeList('BOOKING_READ BOOKING_WRITE')).toEqual(['BOOKING_READ', 'BOOKING_WRITE']);
    expect(splitScopeList('BOOKING_READ,BOOKING_WRITE')).toEqual(['BOOKING_READ', 'BOOKING_WRITE']);
    expect(splitScopeList(' BOOKING_READ, BOOKING_WRITE  BOOKING_READ ')).toEqual(['BOOKING_READ', 'BOOKING_WRITE']);
  });

  it("recognizes only the catalogue's values, case-sensitively", () => {
    expect(['BOOKING_READ', 'READ_PROFILE', 'TEAM_MEMBERSHIP_WRITE', 'ORG_PROFILE_READ'].every(isScope)).toBe(true);
    expect(['booking_read', 'NOT_A_SCOPE', 'ORG_MEMBERSHIP_READ', ''].some(isScope)).toBe(false);
  });

  it('treats no scopes, or only READ_BOOKING/READ_PROFILE, as legacy', () => {
    expect(isLegacyScopeSet([])).toBe(true);
    expect(isLegacyScopeSet(['READ_BOOKING'])).toBe(true);
    expect(isLegacyScopeSet(['READ_BOOKING', 'READ_PROFILE'])).toBe(true);
    expect(isLegacyScopeSet(['READ_BOOKING', 'BOOKING_READ'])).toBe(false);
  });

  it('lets an ORG_ scope satisfy the matching TEAM_ one, not the other way round', () => {
    expect(grants(['ORG_PROFILE_READ'], 'TEAM_PROFILE_READ')).toBe(true);
    expect(grants(['ORG_PROFILE_READ'], 'TEAM_PROFILE_WRITE')).toBe(false);
    expect(grants(['TEAM_PROFILE_READ'], 'ORG_PROFILE_READ')).toBe(false);
    expect(grants(['BOOKING_READ'], 'BOOKING_READ')).toBe(true);
  });
});
