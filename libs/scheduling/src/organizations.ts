import { createHash, randomUUID } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError } from '@platform/errors';
import { isTimeZone, slugify } from './input.js';
import { presentTeam } from './presenters.js';
import { insertMembership } from './memberships.js';
import { outboxEvent } from '@platform/mongo';
import type { MembershipDoc, Role, SchedulingStore, SchedulingWriter, TeamDoc } from './store.js';

/**
 * Organizations are created by the operator (`cli orgs create`), as the real service creates them outside
 * its public API. The organization and its owner's membership are written with their events in their
 * outboxes; the scheduling worker's relay publishes them like any other change.
 */
export async function createOrganization(
  store: SchedulingStore,
  writer: SchedulingWriter,
  input: { name: string; slug?: string; ownerUserId: string; timeZone?: string; commandId?: string },
): Promise<TeamDoc> {
  const commandId = input.commandId ?? `cli:${randomUUID()}`;
  // A redone command finds what it made (the organization, then its owner's membership) instead of making more.
  const done = await store.teamByCommand(commandId);
  if (done) {
    if (!(await store.membershipByCommand(`${commandId}:owner`)))
      await addOrganizationMember(store, writer, {
        orgId: done.id,
        userId: input.ownerUserId,
        role: 'OWNER',
        commandId: `${commandId}:owner`,
      });
    return done;
  }
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200)
    throw new InputError('bad_request', 'The organization name must be 1 to 200 characters.');
  const slug = input.slug ?? slugify(name);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug))
    throw new InputError('bad_request', 'The slug may contain only lowercase letters, digits and single hyphens.');
  const timeZone = input.timeZone ?? 'Europe/London';
  if (!isTimeZone(timeZone)) throw new InputError('bad_request', `Unknown time zone ${timeZone}.`);
  if (await store.slugTaken(slug, { organization: true }))
    throw new ConflictError('slug_taken', `An organization with the slug ${slug} exists.`);
  const at = new Date();
  const id = await writer.nextId('team');
  const org: Omit<TeamDoc, 'outbox' | 'has_outbox'> = {
    _id: String(id),
    id,
    command_id: commandId,
    parent_id: null,
    is_organization: true,
    name,
    slug,
    logo_url: null,
    bio: null,
    time_zone: timeZone,
    week_start: 'Monday',
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
  const created = await writer.teams.insert(org, [
    outboxEvent(MessageTypeNames.TeamChanged, org._id, {
      id,
      change: 'created',
      team_id: null,
      user_id: null,
      actor_user_id: input.ownerUserId,
      snapshot: JSON.stringify(presentTeam(org)),
      occurred_at: Date.now(),
    }),
  ]);
  await addOrganizationMember(store, writer, {
    orgId: id,
    userId: input.ownerUserId,
    role: 'OWNER',
    commandId: `${commandId}:owner`,
  });
  return created;
}

/** Adds a user to an organization (`cli orgs add-member`); organization memberships have no public endpoint. */
export async function addOrganizationMember(
  store: SchedulingStore,
  writer: SchedulingWriter,
  input: { orgId: number; userId: string; role: Role; commandId?: string },
): Promise<MembershipDoc> {
  const commandId = input.commandId ?? `cli:${randomUUID()}`;
  const done = await store.membershipByCommand(commandId);
  if (done) return done;
  const org = await store.team(input.orgId);
  if (!org || !org.is_organization) throw new InputError('bad_request', `No organization ${input.orgId}.`);
  if (await store.membershipOf(org.id, input.userId))
    throw new ConflictError('membership_exists', 'The user is already a member of the organization.');
  return insertMembership(writer, {
    commandId,
    teamId: org.id,
    userId: input.userId,
    role: input.role,
    accepted: true,
    actor: null,
  });
}

/** The team an invite token leads to, while the invite is valid (the web app's invite page). */
export async function describeInvite(
  store: SchedulingStore,
  token: string,
): Promise<{ teamId: number; teamName: string } | null> {
  if (token.length === 0 || token.length > 200) return null;
  const invite = await store.invite(createHash('sha256').update(token).digest('hex'));
  if (!invite || invite.expires_at.getTime() <= Date.now()) return null;
  const team = await store.team(invite.team_id);
  return team ? { teamId: team.id, teamName: team.name } : null;
}
