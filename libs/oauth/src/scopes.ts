/** User-level scopes (the real scheduling service's list). */
export const USER_SCOPES = [
  'EVENT_TYPE_READ',
  'EVENT_TYPE_WRITE',
  'BOOKING_READ',
  'BOOKING_WRITE',
  'SCHEDULE_READ',
  'SCHEDULE_WRITE',
  'APPS_READ',
  'APPS_WRITE',
  'PROFILE_READ',
  'PROFILE_WRITE',
] as const;

/** Values from before scopes existed; a client holding only these is a legacy client. */
export const LEGACY_SCOPES = ['READ_BOOKING', 'READ_PROFILE'] as const;

export const TEAM_SCOPES = [
  'TEAM_EVENT_TYPE_READ',
  'TEAM_EVENT_TYPE_WRITE',
  'TEAM_BOOKING_READ',
  'TEAM_BOOKING_WRITE',
  'TEAM_SCHEDULE_READ',
  'TEAM_SCHEDULE_WRITE',
  'TEAM_PROFILE_READ',
  'TEAM_PROFILE_WRITE',
  'TEAM_MEMBERSHIP_READ',
  'TEAM_MEMBERSHIP_WRITE',
] as const;

export const ORG_SCOPES = [
  'ORG_EVENT_TYPE_READ',
  'ORG_EVENT_TYPE_WRITE',
  'ORG_BOOKING_READ',
  'ORG_BOOKING_WRITE',
  'ORG_SCHEDULE_READ',
  'ORG_SCHEDULE_WRITE',
  'ORG_PROFILE_READ',
  'ORG_PROFILE_WRITE',
  // The spec's org table has no membership scopes; ORG_ ⇒ TEAM_ holds for the pairs that exist.
] as const;

export const ALL_SCOPES = [...USER_SCOPES, ...LEGACY_SCOPES, ...TEAM_SCOPES, ...ORG_SCOPES] as const;
export type Scope = (typeof ALL_SCOPES)[number];

const known = new Set<string>(ALL_SCOPES);

export function isScope(value: string): value is Scope {
  return known.has(value);
}

/** Scope parameters are separated by spaces or by commas (`A B`, `A,B`, even `A, B`). */
export function splitScopeList(value: string): string[] {
  return [...new Set(value.split(/[\s,]+/).filter((s) => s.length > 0))];
}

/** Legacy: no scopes at all, or only READ_BOOKING and/or READ_PROFILE. */
export function isLegacyScopeSet(scopes: readonly string[]): boolean {
  return scopes.every((s) => (LEGACY_SCOPES as readonly string[]).includes(s));
}

export function isTeamOrOrgScope(scope: string): boolean {
  return scope.startsWith('TEAM_') || scope.startsWith('ORG_');
}

/** ORG_X implies TEAM_X: a token holding ORG_PROFILE_READ may call endpoints that need TEAM_PROFILE_READ. */
export function grants(held: readonly string[], required: Scope): boolean {
  if (held.includes(required)) return true;
  if (required.startsWith('TEAM_')) return held.includes(`ORG_${required.slice('TEAM_'.length)}`);
  return false;
}
