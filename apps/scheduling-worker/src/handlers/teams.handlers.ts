import { createHash, randomBytes } from 'node:crypto';
import { MessageTypeNames, type CreateTeam } from '@platform/contracts';
import { ConflictError, InputError } from '@platform/errors';
import { outboxEvent } from '@platform/mongo';
import {
  assertAdminOfOrganization,
  assertManagesTeam,
  assertOwnsTeam,
  input,
  insertMembership,
  presentTeam,
  type InviteLinkView,
  type TeamDoc,
  type TeamView,
} from '@platform/scheduling';
import { actorReach, change, createOnce, definedOnly, insert, recordId, type Fields, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

function teamEvent(team: Fields<TeamDoc>, change: string, actor: string | null) {
  return {
    id: team.id,
    change,
    team_id: team.parent_id,
    user_id: null,
    actor_user_id: actor,
    snapshot: JSON.stringify(presentTeam(team)),
    occurred_at: Date.now(),
  };
}

/** A team's fields besides its name, checked: null in a record is not given; `cleared` ones are set to null. */
function teamDetails(
  v: Pick<CreateTeam, 'slug' | 'logo_url' | 'bio' | 'time_zone' | 'week_start'>,
  cleared: readonly string[] = [],
) {
  const timeZone = input.text(v.time_zone, 'timeZone', 64);
  if (timeZone !== undefined && !input.isTimeZone(timeZone))
    throw new InputError('bad_request', 'timeZone must be an IANA time zone such as Europe/Berlin.');
  const weekStart = input.text(v.week_start, 'weekStart', 10);
  if (weekStart !== undefined && !['Monday', 'Sunday', 'Saturday'].includes(weekStart))
    throw new InputError('bad_request', 'weekStart must be Monday, Sunday or Saturday.');
  return {
    slug: input.slug(v.slug),
    logo_url: cleared.includes('logo_url') ? null : input.url(v.logo_url, 'logoUrl'),
    bio: cleared.includes('bio') ? null : input.text(v.bio, 'bio', 2000),
    time_zone: timeZone,
    week_start: weekStart,
  };
}

async function assertSlugFree(deps: HandlerDeps, parentId: number | null, slug: string, except?: number) {
  const taken =
    parentId === null
      ? await deps.store.slugTaken(slug, { organization: false, ...(except ? { except } : {}) })
      : (await deps.store.teamsOfOrganization(parentId)).some((t) => t.slug === slug && t.id !== except);
  if (taken) throw new ConflictError('slug_taken', `A team with the slug ${slug} already exists here.`);
}

/** POST /v2/teams, or an organization's teams (by its admins). */
export async function createTeam(deps: HandlerDeps, message: Msg<N['CreateTeam']>): Promise<TeamView> {
  const v = message.value;
  const reach = await actorReach(deps, v.actor_user_id);
  const orgId = v.org_id ?? undefined;
  if (orgId !== undefined) assertAdminOfOrganization(reach, await deps.store.team(orgId));
  const name = input.requiredText(v.name, 'name', 200);
  const details = teamDetails(v);
  const slug = details.slug ?? input.slugify(name);
  const team = await createOnce(
    () => deps.store.teamByCommand(message.meta.id),
    async () => {
      await assertSlugFree(deps, orgId ?? null, slug);
      const id = await deps.writer.nextId('team');
      const at = new Date(deps.clock.now());
      const doc: Fields<TeamDoc> = {
        _id: String(id),
        id,
        command_id: message.meta.id,
        parent_id: orgId ?? null,
        is_organization: false,
        name,
        slug,
        logo_url: details.logo_url ?? null,
        bio: details.bio ?? null,
        time_zone: details.time_zone ?? 'Europe/London',
        week_start: details.week_start ?? 'Monday',
        created_at: at,
        updated_at: at,
        deleted_at: null,
      };
      return insert(deps, deps.writer.teams, doc, [
        outboxEvent(MessageTypeNames.TeamChanged, String(id), teamEvent(doc, 'created', v.actor_user_id)),
      ]);
    },
  );
  // The creator of a standalone team owns it; an organization's admins manage its teams already.
  if (orgId === undefined) await ensureOwnerMembership(deps, team, v.actor_user_id, message.meta.id);
  return presentTeam(team);
}

/** A renamed team takes the slug of its new name, unless a slug is given too. */
export async function updateTeam(deps: HandlerDeps, message: Msg<N['UpdateTeam']>): Promise<TeamView> {
  const v = message.value;
  const reach = await actorReach(deps, v.actor_user_id);
  const team = assertOwnsTeam(reach, await deps.store.team(recordId(v.team_id, 'teamId')), v.org_id ?? undefined);
  const name = input.text(v.name, 'name', 200);
  const details = teamDetails(v, v.cleared);
  const fields = definedOnly({ ...details, name, slug: details.slug ?? (name ? input.slugify(name) : undefined) });
  if (Object.keys(fields).length === 0) throw new InputError('bad_request', 'Give at least one field to change.');
  if (fields.slug !== undefined && fields.slug !== team.slug)
    await assertSlugFree(deps, team.parent_id, fields.slug, team.id);
  const updated: TeamDoc = { ...team, ...fields };
  await change(
    deps,
    deps.writer.teams,
    team._id,
    fields,
    MessageTypeNames.TeamChanged,
    team._id,
    teamEvent(updated, 'updated', v.actor_user_id),
  );
  return presentTeam(updated);
}

export async function deleteTeam(deps: HandlerDeps, message: Msg<N['DeleteTeam']>): Promise<TeamView> {
  const v = message.value;
  const reach = await actorReach(deps, v.actor_user_id);
  const team = assertOwnsTeam(reach, await deps.store.team(recordId(v.team_id, 'teamId')), v.org_id ?? undefined);
  await change(
    deps,
    deps.writer.teams,
    team._id,
    { deleted_at: new Date(deps.clock.now()) },
    MessageTypeNames.TeamChanged,
    team._id,
    teamEvent(team, 'deleted', v.actor_user_id),
  );
  return presentTeam(team);
}

export async function createTeamInvite(
  deps: HandlerDeps,
  message: Msg<N['CreateTeamInvite']>,
): Promise<InviteLinkView> {
  const v = message.value;
  const reach = await actorReach(deps, v.actor_user_id);
  const team = assertManagesTeam(reach, await deps.store.team(recordId(v.team_id, 'teamId')), v.org_id ?? undefined);
  // The token is the secret of the link: only its hash is kept.
  const token = randomBytes(24).toString('base64url');
  await deps.writer.insertInvite({
    _id: createHash('sha256').update(token).digest('hex'),
    team_id: team.id,
    created_by: v.actor_user_id,
    created_at: new Date(deps.clock.now()),
    expires_at: new Date(deps.clock.now() + deps.inviteTtlSeconds * 1000),
  });
  return { token, inviteLink: `${deps.webUrl}/teams/invite?token=${token}` };
}

async function ensureOwnerMembership(
  deps: HandlerDeps,
  team: TeamDoc,
  userId: string,
  commandId: string,
): Promise<void> {
  const ownerCommand = `${commandId}:owner`;
  await createOnce(
    () => deps.store.membershipByCommand(ownerCommand),
    async () => {
      const doc = await insertMembership(deps.writer, {
        commandId: ownerCommand,
        teamId: team.id,
        userId,
        role: 'OWNER',
        accepted: true,
        actor: userId,
      });
      return doc;
    },
  );
}
