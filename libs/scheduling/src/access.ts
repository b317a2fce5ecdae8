import { NotAllowedError, NotFoundError } from '@platform/errors';
import type { MembershipDoc, Role, TeamDoc } from './store.js';

/**
 * Who may reach what, from the authorizing user's memberships. A token never reaches more than its user:
 * scopes narrow what a token may do, memberships bound what its user may do. Resources the user cannot
 * see at all are "not found" (their existence is not revealed); visible ones the user may not change are
 * "not allowed".
 */
export interface Reach {
  userId: string;
  /** Accepted memberships by team (or organization) id. */
  roles: Map<number, Role>;
}

export function reachOf(userId: string, memberships: readonly MembershipDoc[]): Reach {
  return { userId, roles: new Map(memberships.filter((m) => m.accepted).map((m) => [m.team_id, m.role])) };
}

const isAdmin = (role: Role | undefined) => role === 'ADMIN' || role === 'OWNER';

export const notFound = (what: string) => new NotFoundError('not_found', `${what} not found.`);
const notAllowed = (what: string) =>
  new NotAllowedError('forbidden', `Only an admin or owner of the ${what} may do this.`);
const notOwner = () =>
  new NotAllowedError('forbidden', 'Only an owner of the team (or an admin of its organization) may do this.');

/** A team seen by the user: a member of it, or an admin of its organization. */
export function canSeeTeam(reach: Reach, team: TeamDoc): boolean {
  if (reach.roles.has(team.id)) return true;
  return team.parent_id !== null && isAdmin(reach.roles.get(team.parent_id));
}

/** A team the user may manage: its admin or owner, or an admin or owner of its organization. */
export function canManageTeam(reach: Reach, team: TeamDoc): boolean {
  if (isAdmin(reach.roles.get(team.id))) return true;
  return team.parent_id !== null && isAdmin(reach.roles.get(team.parent_id));
}

/**
 * What only a team's owners may do, as Cal.com has it: rename or delete the team, make someone an owner, and
 * change or remove an owner's membership. An organization's admins and owners may do it for its teams.
 */
export function canOwnTeam(reach: Reach, team: TeamDoc): boolean {
  if (reach.roles.get(team.id) === 'OWNER') return true;
  return team.parent_id !== null && isAdmin(reach.roles.get(team.parent_id));
}

export function assertSeesTeam(reach: Reach, team: TeamDoc | null, orgId?: number): TeamDoc {
  if (!team || team.is_organization || (orgId !== undefined && team.parent_id !== orgId) || !canSeeTeam(reach, team))
    throw notFound('Team');
  return team;
}

export function assertManagesTeam(reach: Reach, team: TeamDoc | null, orgId?: number): TeamDoc {
  const seen = assertSeesTeam(reach, team, orgId);
  if (!canManageTeam(reach, seen)) throw notAllowed('team');
  return seen;
}

export function assertOwnsTeam(reach: Reach, team: TeamDoc | null, orgId?: number): TeamDoc {
  const managed = assertManagesTeam(reach, team, orgId);
  if (!canOwnTeam(reach, managed)) throw notOwner();
  return managed;
}

/** A membership change that makes an owner, or touches one, is an owner's to make. */
export function assertMayChangeMembership(
  reach: Reach,
  team: TeamDoc,
  change: { currentRole: Role | null; nextRole: Role | null },
): void {
  if ((change.currentRole === 'OWNER' || change.nextRole === 'OWNER') && !canOwnTeam(reach, team)) throw notOwner();
}

export function assertMemberOfOrganization(reach: Reach, org: TeamDoc | null): TeamDoc {
  if (!org || !org.is_organization || !reach.roles.has(org.id)) throw notFound('Organization');
  return org;
}

export function assertAdminOfOrganization(reach: Reach, org: TeamDoc | null): TeamDoc {
  const seen = assertMemberOfOrganization(reach, org);
  if (!isAdmin(reach.roles.get(seen.id))) throw notAllowed('organization');
  return seen;
}

/** A user's schedules in an organization: the user themself, or an admin of the organization. */
export function assertSeesUserInOrganization(reach: Reach, org: TeamDoc, userId: string, userIsMember: boolean): void {
  if (!userIsMember) throw notFound('User');
  if (userId !== reach.userId && !isAdmin(reach.roles.get(org.id))) throw notAllowed('organization');
}

export function isOrganizationAdmin(reach: Reach, orgId: number): boolean {
  return isAdmin(reach.roles.get(orgId));
}

/**
 * What a user may let a client reach beyond their own account: any user may create and so reach teams;
 * organizations only through accepted memberships (organizations are created by the operator).
 */
export async function accountReach(
  memberships: Promise<readonly MembershipDoc[]>,
  organizationIds: (ids: number[]) => Promise<number[]>,
) {
  const accepted = (await memberships).filter((m) => m.accepted).map((m) => m.team_id);
  return { teams: true, organizations: (await organizationIds(accepted)).length > 0 };
}
