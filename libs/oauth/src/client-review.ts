import { isLegacyScopeSet, isTeamOrOrgScope } from './scopes.js';

export type ClientStatus = 'pending' | 'accepted' | 'rejected';

/** The reviewable part of an OAuth client. */
export interface ReviewedFields {
  name: string;
  logoUrl: string | null;
  websiteUrl: string | null;
  purpose: string;
  redirectUris: string[];
  scopes: string[];
}

export const MAX_REDIRECT_URIS = 10;

/**
 * Whether an owner's change sends the client (back) to review, per the spec's transition table:
 * any change to name, logo, website URL, purpose or a redirect URI; any added or removed scope (adding a
 * _READ scope while its _WRITE is granted included). A legacy client that only gains user-level scopes is
 * not re-reviewed; gaining TEAM_ or ORG_ scopes is.
 */
export function changeNeedsReview(before: ReviewedFields, after: ReviewedFields): boolean {
  if (
    before.name !== after.name ||
    before.logoUrl !== after.logoUrl ||
    before.websiteUrl !== after.websiteUrl ||
    before.purpose !== after.purpose ||
    before.redirectUris.length !== after.redirectUris.length ||
    before.redirectUris.some((uri, i) => uri !== after.redirectUris[i])
  ) {
    return true;
  }
  const added = after.scopes.filter((s) => !before.scopes.includes(s));
  const removed = before.scopes.filter((s) => !after.scopes.includes(s));
  if (added.length === 0 && removed.length === 0) return false;
  if (isLegacyScopeSet(before.scopes) && removed.length === 0) return added.some(isTeamOrOrgScope);
  return true;
}

/** The status after an owner's change: accepted clients go back to pending when the change needs review. */
export function statusAfterChange(status: ClientStatus, before: ReviewedFields, after: ReviewedFields): ClientStatus {
  if (!changeNeedsReview(before, after)) return status;
  // A rejected client that is changed is resubmitted (the spec leaves transitions out of rejected open).
  return 'pending';
}
