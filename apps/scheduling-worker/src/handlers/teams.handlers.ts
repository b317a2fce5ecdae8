import { createHash, randomBytes } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError } from '@platform/errors';
import {
  assertAdminOfOrganization,
  assertManagesTeam,
  assertOwnsTeam,
  input,
  insertMembership,
  presentTeam,
  type TeamDoc,
  type TeamView,
  type InviteLinkView,
} from '@platform/scheduling';
import { actorReach, change, createOnce, insert, payloadOf, type Fields, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';
import { outboxEvent } from '@platform/mongo';

export type TeamMsg = Msg<(typeof MessageTypeNames)['TeamCommand']>;

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

function teamFields(body: Record<string, unknown>, creating: boolean) {
  const name = creating ? input.requiredString(body, 'name', 200) : input.optionalString(body, 'name', 200);
  const timeZone = input.optionalString(body, 'timeZone', 64);
  if (timeZone !== undefined && !input.isTimeZone(timeZone))
    throw new InputError('bad_request', 'timeZone must be an IANA time zone such as Europe/Berlin.');
  const weekStart = input.optionalString(body, 'weekStart', 10);
  if (weekStart !== undefined && !['Monday', 'Sunday', 'Saturday'].includes(weekStart))
    throw new InputError('bad_request', 'weekStart must be Monday, Sunday or Saturday.');
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
  const taken =
    parentId === null
      ? await deps.store.slugTaken(slug, { organization: false, ...(except ? { except } : {}) })
      : (await deps.store.teamsOfOrganization(parentId)).some((t) => t.slug === slug && t.id !== except);
  if (taken) throw new ConflictError('slug_taken', `A team with the slug ${slug} already exists here.`);
}

export async function teamCommand(
  deps: HandlerDeps,
  message: TeamMsg,
  body: Record<string, unknown> = payloadOf(message),
): Promise<TeamView | InviteLinkView> {
  const v = message.value;
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
          const id = await deps.writer.nextId('team');
          const at = new Date(deps.clock.now());
          const doc: Fields<TeamDoc> = {
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
          };
          const stored = await insert(deps, deps.writer.teams, doc, [
            outboxEvent(MessageTypeNames.TeamChanged, String(id), teamEvent(doc, 'created', v.actor_user_id)),
          ]);
          return stored;
        },
      );
      // The creator of a standalone team owns it; an organization's admins manage its teams already.
      if (orgId === undefined) await ensureOwnerMembership(deps, team, v.actor_user_id!, message.meta.id);
      return presentTeam(team);
    }
    case 'update': {
      const team = assertOwnsTeam(reach, await deps.store.team(input.positiveId(v.target_id, 'teamId')), orgId);
      const fields = Object.fromEntries(
        Object.entries(teamFields(body, false)).filter(([, value]) => value !== undefined),
      );
      if (Object.keys(fields).length === 0) throw new InputError('bad_request', 'Give at least one field to change.');
      if (typeof fields['slug'] === 'string' && fields['slug'] !== team.slug)
        await assertSlugFree(deps, team.parent_id, fields['slug'], team.id);
      const updated = { ...team, ...fields } as TeamDoc;
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
    case 'delete': {
      const team = assertOwnsTeam(reach, await deps.store.team(input.positiveId(v.target_id, 'teamId')), orgId);
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
    case 'invite': {
      const team = assertManagesTeam(reach, await deps.store.team(input.positiveId(v.target_id, 'teamId')), orgId);
      // The token is the secret of the link: only its hash is kept.
      const token = randomBytes(24).toString('base64url');
      await deps.writer.insertInvite({
        _id: createHash('sha256').update(token).digest('hex'),
        team_id: team.id,
        created_by: v.actor_user_id!,
        created_at: new Date(deps.clock.now()),
        expires_at: new Date(deps.clock.now() + deps.inviteTtlSeconds * 1000),
      });
      return { token, inviteLink: `${deps.webUrl}/teams/invite?token=${token}` };
    }
    default:
      throw new InputError('bad_request', `Unknown team action ${v.action}.`);
  }
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
      deps.touched?.(deps.writer.memberships.source, doc._id);
      return doc;
    },
  );
}
