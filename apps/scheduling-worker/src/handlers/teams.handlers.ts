import { createHash, randomBytes } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError } from '@platform/errors';
import {
  assertAdminOfOrganization,
  assertManagesTeam,
  input,
  insertMembership,
  presentTeam,
  schedulingEvent,
  type TeamDoc,
  type TeamView,
  type InviteLinkView,
} from '@platform/scheduling';
import { actorReach, changeWithEvent, createOnce, payloadOf, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

type TeamMsg = Msg<(typeof MessageTypeNames)['TeamCommand']>;

function teamEvent(team: TeamDoc, change: string, actor: string | null) {
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

function teamFields(body: Record<string, unknown>, creating: boolean) {
  const name = creating ? input.requiredString(body, 'name', 200) : input.optionalString(body, 'name', 200);
  const timeZone = input.optionalString(body, 'timeZone', 64);
  if (timeZone !== undefined && !input.isTimeZone(timeZone)) throw new InputError('bad_request', 'timeZone must be an IANA time zone such as Europe/Berlin.');
  const weekStart = input.optionalString(body, 'weekStart', 10);
  if (weekStart !== undefined && !['Monday', 'Sunday', 'Saturday'].includes(weekStart)) throw new InputError('bad_request', 'weekStart must be Monday, Sunday or Saturday.');
  return {
    name,
    slug: input.optionalSlug(body) ?? (name ? input.slugify(name) : undefined),
    logo_url: input.optionalUrl(body, 'logoUrl'),
    bio: body['bio'] === null ? null : input.optionalString(body, 'bio', 2000),
    time_zone: timeZone,
    week_start: weekStart,
  };
}

async function assertSlugFree(deps: HandlerDeps, parentId: number | null, slug: string, except?: number) {
  const siblings = parentId === null ? [] : await deps.store.teamsOfOrganization(parentId);
  const taken = parentId === null
    ? await deps.store.models.Team.exists({ parent_id: null, slug, deleted_at: null, is_organization: false, ...(except ? { id: { $ne: except } } : {}) })
    : siblings.some((t) => t.slug === slug && t.id !== except);
  if (taken) throw new ConflictError('slug_taken', `A team with the slug ${slug} already exists here.`);
}

export async function teamCommand(deps: HandlerDeps, message: TeamMsg): Promise<TeamView | InviteLinkView> {
  const v = message.value;
  const body = payloadOf(message);
  const reach = await actorReach(deps, v.actor_user_id);
  const orgId = v.scope_org_id ?? undefined;
  switch (v.action) {
    case 'create': {
      if (orgId !== undefined) assertAdminOfOrganization(reach, await deps.store.team(orgId));
      const fields = teamFields(body, true);
      const team = await createOnce(
        () => deps.store.teamByCommand(message.meta.id),
        async () => {
          await assertSlugFree(deps, orgId ?? null, fields.slug!);
          const id = await deps.store.nextId('team');
          const at = new Date();
          const doc: TeamDoc = {
            _id: String(id),
            id,
            command_id: message.meta.id,
            parent_id: orgId ?? null,
            is_organization: false,
            name: fields.name!,
            slug: fields.slug!,
            logo_url: fields.logo_url ?? null,
            bio: fields.bio ?? null,
            time_zone: fields.time_zone ?? 'Europe/London',
            week_start: fields.week_start ?? 'Monday',
            created_at: at,
            updated_at: at,
            deleted_at: null,
            has_outbox: true,
            outbox: [],
          };
          doc.outbox.push(schedulingEvent(MessageTypeNames.TeamChanged, String(id), teamEvent(doc, 'created', v.actor_user_id)));
          await deps.store.models.Team.create(doc);
          deps.touched?.('sched_teams', doc._id);
          return doc;
        },
      );
      // The creator of a standalone team owns it; an organization's admins manage its teams already.
      if (orgId === undefined) await ensureOwnerMembership(deps, team, v.actor_user_id!, message.meta.id);
      return presentTeam(team);
    }
    case 'update': {
      const team = assertManagesTeam(reach, await deps.store.team(input.positiveId(v.target_id, 'teamId')), orgId);
      const fields = Object.fromEntries(Object.entries(teamFields(body, false)).filter(([, value]) => value !== undefined));
      if (Object.keys(fields).length === 0) throw new InputError('bad_request', 'Give at least one field to change.');
      if (typeof fields['slug'] === 'string' && fields['slug'] !== team.slug) await assertSlugFree(deps, team.parent_id, fields['slug'], team.id);
      const updated = { ...team, ...fields } as TeamDoc;
      await deps.store.models.Team.updateOne({ _id: team._id }, changeWithEvent(fields, MessageTypeNames.TeamChanged, team._id, teamEvent(updated, 'updated', v.actor_user_id)));
      deps.touched?.('sched_teams', team._id);
      return presentTeam(updated);
    }
    case 'delete': {
      const team = assertManagesTeam(reach, await deps.store.team(input.positiveId(v.target_id, 'teamId')), orgId);
      await deps.store.models.Team.updateOne({ _id: team._id }, changeWithEvent({ deleted_at: new Date() }, MessageTypeNames.TeamChanged, team._id, teamEvent(team, 'deleted', v.actor_user_id)));
      deps.touched?.('sched_teams', team._id);
      return presentTeam(team);
    }
    case 'invite': {
      const team = assertManagesTeam(reach, await deps.store.team(input.positiveId(v.target_id, 'teamId')), orgId);
      // The token is the secret of the link: only its hash is kept.
      const token = randomBytes(24).toString('base64url');
      await deps.store.models.Invite.create({
        _id: createHash('sha256').update(token).digest('hex'),
        team_id: team.id,
        created_by: v.actor_user_id!,
        created_at: new Date(),
        expires_at: new Date(Date.now() + deps.inviteTtlSeconds * 1000),
      });
      return { token, inviteLink: `${deps.webUrl}/teams/invite?token=${token}` };
    }
    default:
      throw new InputError('bad_request', `Unknown team action ${v.action}.`);
  }
}

async function ensureOwnerMembership(deps: HandlerDeps, team: TeamDoc, userId: string, commandId: string): Promise<void> {
  const ownerCommand = `${commandId}:owner`;
  await createOnce(
    () => deps.store.membershipByCommand(ownerCommand),
    async () => {
      const doc = await insertMembership(deps.store, { commandId: ownerCommand, teamId: team.id, userId, role: 'OWNER', accepted: true, actor: userId });
      deps.touched?.('sched_memberships', doc._id);
      return doc;
    },
  );
}
