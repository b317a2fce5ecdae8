import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import {
  assertManagesTeam,
  assertSeesTeam,
  input,
  presentEventType,
  type EventTypeDoc,
  type Reach,
  type TeamDoc,
  type EventTypeView,
} from '@platform/scheduling';
import { outboxEvent } from '@platform/mongo';
import { actorReach, change, createOnce, insert, payloadOf, userLookup, type Fields, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

export type EventTypeMsg = Msg<(typeof MessageTypeNames)['EventTypeCommand']>;

function eventTypeEvent(e: Fields<EventTypeDoc>, change: string, actor: string | null) {
  return {
    id: e.id,
    change,
    team_id: e.team_id,
    user_id: null,
    actor_user_id: actor,
    snapshot: JSON.stringify({
      id: e.id,
      teamId: e.team_id,
      title: e.title,
      slug: e.slug,
      lengthInMinutes: e.length_in_minutes,
      hosts: e.host_user_ids,
    }),
    occurred_at: Date.now(),
  };
}

/** Hosts must be accepted members of the team. */
async function checkedHosts(deps: HandlerDeps, team: TeamDoc, hosts: string[]): Promise<string[]> {
  const members = new Set(
    (await deps.store.membershipsOfTeam(team.id)).filter((m) => m.accepted).map((m) => m.user_id),
  );
  const outsider = hosts.find((h) => !members.has(h));
  if (outsider) throw new InputError('bad_request', `Host ${outsider} is not an accepted member of the team.`);
  return hosts;
}

/** Who owns the event types a command is about: a team (path [T] or [OT]) or the acting user (/v2/event-types). */
type Owner = { team: TeamDoc; userId: null } | { team: null; userId: string };

const owns = (owner: Owner, e: EventTypeDoc) =>
  owner.team ? e.team_id === owner.team.id : e.owner_user_id === owner.userId;

async function eventTypeOf(deps: HandlerDeps, owner: Owner, id: string | null): Promise<EventTypeDoc> {
  const eventType = await deps.store.eventType(input.positiveId(id, 'eventTypeId'));
  if (!eventType || !owns(owner, eventType)) throw new NotFoundError('not_found', 'Event type not found.');
  return eventType;
}

async function present(deps: HandlerDeps, e: EventTypeDoc) {
  const hosts =
    e.team_id === null
      ? [e.owner_user_id!]
      : e.host_user_ids.length > 0
        ? e.host_user_ids
        : (await deps.store.membershipsOfTeam(e.team_id)).filter((m) => m.accepted).map((m) => m.user_id);
  return presentEventType(e, hosts, await userLookup(deps, hosts));
}

async function assertSlugFree(deps: HandlerDeps, owner: Owner, slug: string, except?: number) {
  const siblings = owner.team
    ? await deps.store.eventTypesOfTeams([owner.team.id])
    : await deps.store.eventTypesOfUser(owner.userId);
  if (siblings.some((e) => e.slug === slug && e.id !== except)) {
    throw new ConflictError(
      'slug_taken',
      `${owner.team ? 'The team' : 'You'} already ${owner.team ? 'has' : 'have'} an event type with the slug ${slug}.`,
    );
  }
}

const E164 = /^\+[1-9]\d{6,14}$/;

export async function eventTypeCommand(
  deps: HandlerDeps,
  message: EventTypeMsg,
  body: Record<string, unknown> = payloadOf(message),
): Promise<EventTypeView | { callId: string }> {
  const v = message.value;
  const reach: Reach = await actorReach(deps, v.actor_user_id);
  const orgId = v.scope_org_id ?? undefined;
  const personal = v.scope_team_id === null;
  const teamDoc = personal ? null : await deps.store.team(input.positiveId(v.scope_team_id, 'teamId'));
  // Changes need a team's admin (or the owner, for a personal event type); a phone call any member.
  const owner = (manage: boolean): Owner =>
    personal
      ? { team: null, userId: v.actor_user_id! }
      : {
          team: manage ? assertManagesTeam(reach, teamDoc, orgId) : assertSeesTeam(reach, teamDoc, orgId),
          userId: null,
        };
  switch (v.action) {
    case 'create': {
      const target = owner(true);
      const team = target.team;
      const title = input.requiredString(body, 'title', 200);
      const slug = input.optionalSlug(body) ?? input.slugify(title);
      const length = input.lengthInMinutes(body, true)!;
      const hostList = input.optionalHosts(body);
      if (!team && hostList !== undefined)
        throw new InputError(
          'bad_request',
          'A personal event type is hosted by its owner: hosts are for team event types.',
        );
      const hosts = team ? await checkedHosts(deps, team, hostList ?? []) : [];
      const created = await createOnce(
        () => deps.store.eventTypeByCommand(message.meta.id),
        async () => {
          await assertSlugFree(deps, target, slug);
          const id = await deps.writer.nextId('event_type');
          const at = new Date(deps.clock.now());
          const doc: Fields<EventTypeDoc> = {
            _id: String(id),
            id,
            command_id: message.meta.id,
            team_id: team?.id ?? null,
            owner_user_id: team ? null : target.userId,
            title,
            slug,
            description: input.optionalString(body, 'description', 5000) ?? null,
            length_in_minutes: length,
            host_user_ids: hosts,
            scheduling_type: input.optionalSchedulingType(body) ?? 'COLLECTIVE',
            created_at: at,
            updated_at: at,
            deleted_at: null,
          };
          const stored = await insert(deps, deps.writer.eventTypes, doc, [
            outboxEvent(MessageTypeNames.EventTypeChanged, String(id), eventTypeEvent(doc, 'created', v.actor_user_id)),
          ]);
          return stored;
        },
      );
      return present(deps, created);
    }
    case 'update': {
      const target = owner(true);
      const current = await eventTypeOf(deps, target, v.target_id);
      const hosts = input.optionalHosts(body);
      if (!target.team && hosts !== undefined)
        throw new InputError(
          'bad_request',
          'A personal event type is hosted by its owner: hosts are for team event types.',
        );
      const fields: Record<string, unknown> = {
        title: input.optionalString(body, 'title', 200),
        slug: input.optionalSlug(body),
        description: input.optionalString(body, 'description', 5000),
        length_in_minutes: input.lengthInMinutes(body, false),
        scheduling_type: input.optionalSchedulingType(body),
        host_user_ids: hosts === undefined || !target.team ? undefined : await checkedHosts(deps, target.team, hosts),
      };
      for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
      if (Object.keys(fields).length === 0) throw new InputError('bad_request', 'Give at least one field to change.');
      if (typeof fields['slug'] === 'string') await assertSlugFree(deps, target, fields['slug'], current.id);
      const updated = { ...current, ...fields } as EventTypeDoc;
      await change(
        deps,
        deps.writer.eventTypes,
        current._id,
        fields,
        MessageTypeNames.EventTypeChanged,
        current._id,
        eventTypeEvent(updated, 'updated', v.actor_user_id),
      );
      return present(deps, updated);
    }
    case 'delete': {
      const current = await eventTypeOf(deps, owner(true), v.target_id);
      await change(
        deps,
        deps.writer.eventTypes,
        current._id,
        { deleted_at: new Date(deps.clock.now()) },
        MessageTypeNames.EventTypeChanged,
        current._id,
        eventTypeEvent(current, 'deleted', v.actor_user_id),
      );
      return present(deps, current);
    }
    case 'phone_call': {
      // Any member may ask for a call; the telephony integration consumes the event and places it.
      const team = owner(false).team;
      if (!team) throw new InputError('bad_request', 'Phone calls are for team event types.');
      const eventType = await eventTypeOf(deps, { team, userId: null }, v.target_id);
      const from = input.requiredString(body, 'yourPhoneNumber', 20);
      const to = input.requiredString(body, 'numberToCall', 20);
      if (!E164.test(from) || !E164.test(to))
        throw new InputError(
          'bad_request',
          'yourPhoneNumber and numberToCall must be E.164 numbers such as +4930123456.',
        );
      const templateType = input.optionalString(body, 'templateType', 40) ?? 'CUSTOM_TEMPLATE';
      const details = Object.fromEntries(
        ['schedulerName', 'guestName', 'guestEmail', 'guestCompany', 'beginMessage', 'generalPrompt'].map((f) => [
          f,
          input.optionalString(body, f, 5000) ?? null,
        ]),
      );
      // One call per command, also when the command is redone: the id comes from the command.
      const callId = `call_${message.meta.id.replace(/-/g, '').slice(0, 24)}`;
      // Only an event: the call is the telephony integration's to place.
      await deps.writer.eventTypes.change({ _id: eventType._id }, {}, [
        outboxEvent(MessageTypeNames.PhoneCallRequested, callId, {
          call_id: callId,
          event_type_id: eventType.id,
          team_id: team.id,
          actor_user_id: v.actor_user_id!,
          from_number: from,
          to_number: to,
          template_type: templateType,
          details: JSON.stringify(details),
          occurred_at: Date.now(),
        }),
      ]);
      deps.touched?.(deps.writer.eventTypes.source, eventType._id);
      return { callId };
    }
    default:
      throw new InputError('bad_request', `Unknown event type action ${v.action}.`);
  }
}
