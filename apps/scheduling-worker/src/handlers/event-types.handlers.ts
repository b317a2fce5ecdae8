import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import { outboxEvent } from '@platform/mongo';
import {
  assertManagesTeam,
  assertSeesTeam,
  input,
  presentEventType,
  type EventTypeDoc,
  type EventTypeView,
  type TeamDoc,
} from '@platform/scheduling';
import {
  actorReach,
  change,
  createOnce,
  definedOnly,
  insert,
  recordId,
  userLookup,
  type Fields,
  type Msg,
} from './common.js';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

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

async function eventTypeOf(deps: HandlerDeps, owner: Owner, id: number): Promise<EventTypeDoc> {
  const eventType = await deps.store.eventType(recordId(id, 'eventTypeId'));
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

/**
 * The owner of the event types of a command: the acting user (no team), or the team, which the actor must
 * manage to change them and see to ask for a phone call.
 */
async function ownerOf(
  deps: HandlerDeps,
  v: { actor_user_id: string; org_id: number | null; team_id: number | null },
  may: 'manage' | 'see',
): Promise<Owner> {
  const reach = await actorReach(deps, v.actor_user_id);
  if (v.team_id === null) return { team: null, userId: v.actor_user_id };
  const team = await deps.store.team(input.positiveId(v.team_id, 'teamId'));
  const orgId = v.org_id ?? undefined;
  return {
    team: may === 'manage' ? assertManagesTeam(reach, team, orgId) : assertSeesTeam(reach, team, orgId),
    userId: null,
  };
}

const personalHosts = () =>
  new InputError('bad_request', 'A personal event type is hosted by its owner: hosts are for team event types.');

const hostList = (ids: string[] | null) => (ids === null ? undefined : input.hostIds(ids));

export async function createEventType(deps: HandlerDeps, message: Msg<N['CreateEventType']>): Promise<EventTypeView> {
  const v = message.value;
  const owner = await ownerOf(deps, v, 'manage');
  const team = owner.team;
  const title = input.requiredText(v.title, 'title', 200);
  const slug = input.slug(v.slug) ?? input.slugify(title);
  const length = input.lengthInMinutes(v.length_in_minutes, true)!;
  const named = hostList(v.host_user_ids);
  if (!team && named !== undefined) throw personalHosts();
  const hosts = team ? await checkedHosts(deps, team, named ?? []) : [];
  const created = await createOnce(
    () => deps.store.eventTypeByCommand(message.meta.id),
    async () => {
      await assertSlugFree(deps, owner, slug);
      const id = await deps.writer.nextId('event_type');
      const at = new Date(deps.clock.now());
      const doc: Fields<EventTypeDoc> = {
        _id: String(id),
        id,
        command_id: message.meta.id,
        team_id: team?.id ?? null,
        owner_user_id: team ? null : owner.userId,
        title,
        slug,
        description: input.text(v.description, 'description', 5000) ?? null,
        length_in_minutes: length,
        host_user_ids: hosts,
        scheduling_type: v.scheduling_type ?? 'COLLECTIVE',
        created_at: at,
        updated_at: at,
        deleted_at: null,
      };
      return insert(deps, deps.writer.eventTypes, doc, [
        outboxEvent(MessageTypeNames.EventTypeChanged, String(id), eventTypeEvent(doc, 'created', v.actor_user_id)),
      ]);
    },
  );
  return present(deps, created);
}

export async function updateEventType(deps: HandlerDeps, message: Msg<N['UpdateEventType']>): Promise<EventTypeView> {
  const v = message.value;
  const owner = await ownerOf(deps, v, 'manage');
  const current = await eventTypeOf(deps, owner, v.event_type_id);
  const named = hostList(v.host_user_ids);
  if (!owner.team && named !== undefined) throw personalHosts();
  const fields = definedOnly({
    title: input.text(v.title, 'title', 200),
    slug: input.slug(v.slug),
    description: input.text(v.description, 'description', 5000),
    length_in_minutes: input.lengthInMinutes(v.length_in_minutes ?? undefined, false),
    scheduling_type: v.scheduling_type ?? undefined,
    host_user_ids: named === undefined || !owner.team ? undefined : await checkedHosts(deps, owner.team, named),
  });
  if (Object.keys(fields).length === 0) throw new InputError('bad_request', 'Give at least one field to change.');
  if (fields.slug !== undefined) await assertSlugFree(deps, owner, fields.slug, current.id);
  const updated: EventTypeDoc = { ...current, ...fields };
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

export async function deleteEventType(deps: HandlerDeps, message: Msg<N['DeleteEventType']>): Promise<EventTypeView> {
  const v = message.value;
  const current = await eventTypeOf(deps, await ownerOf(deps, v, 'manage'), v.event_type_id);
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

const E164 = /^\+[1-9]\d{6,14}$/;
export const PHONE_CALL_DETAILS = [
  'schedulerName',
  'guestName',
  'guestEmail',
  'guestCompany',
  'beginMessage',
  'generalPrompt',
];

/** Any member may ask for a call; the telephony integration consumes the event and places it. */
export async function requestPhoneCall(
  deps: HandlerDeps,
  message: Msg<N['RequestPhoneCall']>,
): Promise<{ callId: string }> {
  const v = message.value;
  const { team } = await ownerOf(deps, v, 'see');
  if (!team) throw new InputError('bad_request', 'Phone calls are for team event types.');
  const eventType = await eventTypeOf(deps, { team, userId: null }, v.event_type_id);
  const from = input.requiredText(v.your_phone_number, 'yourPhoneNumber', 20);
  const to = input.requiredText(v.number_to_call, 'numberToCall', 20);
  if (!E164.test(from) || !E164.test(to))
    throw new InputError('bad_request', 'yourPhoneNumber and numberToCall must be E.164 numbers such as +4930123456.');
  const templateType = input.text(v.template_type, 'templateType', 40) ?? 'CUSTOM_TEMPLATE';
  const details = Object.fromEntries(PHONE_CALL_DETAILS.map((f) => [f, input.text(v.details[f], f, 5000) ?? null]));
  // One call per command, also when the command is redone: the id comes from the command.
  const callId = `call_${message.meta.id.replace(/-/g, '').slice(0, 24)}`;
  await deps.writer.eventTypes.change({ _id: eventType._id }, {}, [
    outboxEvent(MessageTypeNames.PhoneCallRequested, callId, {
      call_id: callId,
      event_type_id: eventType.id,
      team_id: team.id,
      actor_user_id: v.actor_user_id,
      from_number: from,
      to_number: to,
      template_type: templateType,
      details: JSON.stringify(details),
      occurred_at: Date.now(),
    }),
  ]);
  return { callId };
}
