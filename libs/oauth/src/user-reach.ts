import type { Scope } from './scopes.js';

/**
 * What the authorizing user can give a client access to beyond their own account: TEAM_ scopes reach the
 * teams the user belongs to (an organization's teams too), ORG_ scopes the user's organizations.
 */
export interface UserReach {
  teams: boolean;
  organizations: boolean;
}

export const NO_REACH: UserReach = Object.freeze({ teams: false, organizations: false });

/** The requested scopes the user lacks permission to grant (the spec's "lacks permission" row). */
export function scopesBeyondUser(scopes: readonly Scope[], reach: UserReach): Scope[] {
  return scopes.filter((scope) => {
    if (scope.startsWith('ORG_')) return !reach.organizations;
    if (scope.startsWith('TEAM_')) return !reach.teams && !reach.organizations;
    return false;
  });
}
