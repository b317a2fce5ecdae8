import { describe, expect, it } from 'vitest';
import { fake } from '@platform/testing';
import type { MembershipDoc, SchedulingStore, TeamDoc } from './store.js';
import { readsFor } from './user-reads.js';

const at = new Date('2030-01-01T00:00:00Z');
const base = { command_id: 'c', created_at: at, updated_at: at, deleted_at: null, outbox: [], has_outbox: false };
const team = (id: number, parent: number | null = null, org = false): TeamDoc => ({
  ...base,
  _id: String(id),
  id,
  parent_id: parent,
  is_organization: org,
  name: `T${id}`,
  slug: `t${id}`,
  logo_url: null,
  bio: null,
  time_zone: 'UTC',
  week_start: 'Monday',
});
const member = (teamId: number, userId: string, role: MembershipDoc['role']): MembershipDoc => ({
  ...base,
  _id: `${teamId}${userId}`,
  id: teamId,
  team_id: teamId,
  user_id: userId,
  role,
  accepted: true,
});

const teams = new Map([team(1), team(10, null, true), team(11, 10), team(12, 10)].map((t) => [t.id, t]));
const memberships = [
  member(1, 'ann', 'MEMBER'),
  member(10, 'org-admin', 'ADMIN'),
  member(10, 'org-member', 'MEMBER'),
  member(11, 'org-member', 'MEMBER'),
];
const store = fake<SchedulingStore>({
  team: async (id) => teams.get(id) ?? null,
  membershipsOfUser: async (userId) => memberships.filter((m) => m.user_id === userId),
  teamsOfOrganization: async (orgId) => [...teams.values()].filter((t) => t.parent_id === orgId),
});

describe('readsFor: scheduling data as one user may see it', () => {
  it('finds a team for its members and an admin of its organization, and for nobody else', async () => {
    await expect(readsFor(store, 'ann').team(1)).resolves.toMatchObject({ id: 1 });
    await expect(readsFor(store, 'org-admin').team(12, 10)).resolves.toMatchObject({ id: 12 });
    await expect(readsFor(store, 'stranger').team(1)).rejects.toMatchObject({
      code: 'not_found',
      message: 'Team not found.',
    });
    await expect(readsFor(store, 'org-member').team(12, 10)).rejects.toMatchObject({ code: 'not_found' });
    // A team is not found through another organization's path.
    await expect(readsFor(store, 'org-admin').team(1, 10)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists the teams of an organization: all for its admins, their own for members, none for strangers', async () => {
    expect((await readsFor(store, 'org-admin').teamsOfOrganization(10)).map((t) => t.id)).toEqual([11, 12]);
    expect((await readsFor(store, 'org-member').teamsOfOrganization(10)).map((t) => t.id)).toEqual([11]);
    await expect(readsFor(store, 'ann').teamsOfOrganization(10)).rejects.toMatchObject({
      code: 'not_found',
      message: 'Organization not found.',
    });
    await expect(readsFor(store, 'org-member').administeredOrganization(10)).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
