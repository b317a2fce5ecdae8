import { MessageTypeNames, type UpdateSchedule } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import { outboxEvent } from '@platform/mongo';
import {
  assertMemberOfOrganization,
  assertSeesUserInOrganization,
  input,
  presentSchedule,
  validateAvailability,
  type ScheduleDoc,
  type ScheduleView,
} from '@platform/scheduling';
import { actorReach, change, createOnce, insert, recordId, type Fields, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

function scheduleEvent(s: Fields<ScheduleDoc>, change: string, actor: string | null) {
  return {
    id: s.id,
    change,
    team_id: null,
    user_id: s.user_id,
    actor_user_id: actor,
    snapshot: JSON.stringify(presentSchedule(s)),
    occurred_at: Date.now(),
  };
}

/** A schedule's availability from a record (null: not given, the current one kept), checked. */
function availabilityOf(v: Pick<UpdateSchedule, 'time_zone' | 'availability' | 'overrides'>, current?: ScheduleDoc) {
  return validateAvailability({
    timeZone: v.time_zone ?? current?.time_zone,
    availability:
      v.availability?.map((r) => ({ days: r.days, startTime: r.start_time, endTime: r.end_time })) ??
      current?.availability ??
      [],
    overrides:
      v.overrides?.map((o) => ({ date: o.date, startTime: o.start_time, endTime: o.end_time })) ??
      current?.overrides ??
      [],
  });
}

/**
 * A user's schedules, written by the user (/v2/schedules, or their own path in an organization) or by an
 * admin of their organization (/v2/organizations/:orgId/users/:userId/schedules).
 */
async function schedulesInReach(
  deps: HandlerDeps,
  v: { actor_user_id: string; org_id: number | null; user_id: string },
): Promise<{ userId: string; owned: ScheduleDoc[] }> {
  const reach = await actorReach(deps, v.actor_user_id);
  const userId = input.requiredText(v.user_id, 'userId', 100);
  if (v.org_id === null) {
    if (userId !== v.actor_user_id) throw new NotFoundError('not_found', 'User not found.');
  } else {
    const org = assertMemberOfOrganization(reach, await deps.store.team(input.positiveId(v.org_id, 'orgId')));
    assertSeesUserInOrganization(reach, org, userId, Boolean(await deps.store.membershipOf(org.id, userId)));
  }
  return { userId, owned: await deps.store.schedulesOfUsers([userId]) };
}

function ownedSchedule(owned: ScheduleDoc[], scheduleId: number): ScheduleDoc {
  const schedule = owned.find((s) => s.id === recordId(scheduleId, 'scheduleId'));
  if (!schedule) throw new NotFoundError('not_found', 'Schedule not found.');
  return schedule;
}

/** A user's first schedule becomes the default (bookings use the default). */
export async function createSchedule(deps: HandlerDeps, message: Msg<N['CreateSchedule']>): Promise<ScheduleView> {
  const v = message.value;
  const { userId, owned } = await schedulesInReach(deps, v);
  const availability = availabilityOf(v);
  const name = input.requiredText(v.name, 'name', 200);
  const isDefault = (v.is_default ?? false) || owned.length === 0;
  const created = await createOnce(
    () => deps.store.scheduleByCommand(message.meta.id),
    async () => {
      const id = await deps.writer.nextId('schedule');
      const at = new Date(deps.clock.now());
      const doc: Fields<ScheduleDoc> = {
        _id: String(id),
        id,
        command_id: message.meta.id,
        user_id: userId,
        name,
        time_zone: availability.timeZone,
        availability: availability.weekly,
        overrides: availability.overrides,
        is_default: isDefault,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      };
      const stored = await insert(deps, deps.writer.schedules, doc, [
        outboxEvent(MessageTypeNames.ScheduleChanged, String(id), scheduleEvent(doc, 'created', v.actor_user_id)),
      ]);
      if (isDefault) await clearOtherDefaults(deps, owned, id);
      return stored;
    },
  );
  return presentSchedule(created);
}

export async function updateSchedule(deps: HandlerDeps, message: Msg<N['UpdateSchedule']>): Promise<ScheduleView> {
  const v = message.value;
  const { owned } = await schedulesInReach(deps, v);
  const current = ownedSchedule(owned, v.schedule_id);
  const availability = availabilityOf(v, current);
  const name = input.text(v.name, 'name', 200);
  const isDefault = v.is_default ?? undefined;
  if (isDefault === false && current.is_default)
    throw new InputError('bad_request', 'Make another schedule the default instead.');
  const fields = {
    time_zone: availability.timeZone,
    availability: availability.weekly,
    overrides: availability.overrides,
    ...(name !== undefined ? { name } : {}),
    ...(isDefault !== undefined ? { is_default: isDefault } : {}),
  };
  const updated = { ...current, ...fields };
  await change(
    deps,
    deps.writer.schedules,
    current._id,
    fields,
    MessageTypeNames.ScheduleChanged,
    current._id,
    scheduleEvent(updated, 'updated', v.actor_user_id),
  );
  if (isDefault) await clearOtherDefaults(deps, owned, current.id);
  return presentSchedule(updated);
}

/** The next of the user's schedules becomes the default in place of a deleted default. */
export async function deleteSchedule(deps: HandlerDeps, message: Msg<N['DeleteSchedule']>): Promise<ScheduleView> {
  const v = message.value;
  const { owned } = await schedulesInReach(deps, v);
  const current = ownedSchedule(owned, v.schedule_id);
  await change(
    deps,
    deps.writer.schedules,
    current._id,
    { deleted_at: new Date(deps.clock.now()) },
    MessageTypeNames.ScheduleChanged,
    current._id,
    scheduleEvent(current, 'deleted', v.actor_user_id),
  );
  const next = owned.find((s) => s.id !== current.id);
  if (current.is_default && next)
    await deps.writer.schedules.change(
      { _id: next._id },
      { is_default: true, updated_at: new Date(deps.clock.now()) },
      [],
    );
  return presentSchedule(current);
}

async function clearOtherDefaults(deps: HandlerDeps, owned: ScheduleDoc[], keep: number) {
  for (const s of owned) {
    if (s.id !== keep && s.is_default)
      await deps.writer.schedules.change(
        { _id: s._id },
        { is_default: false, updated_at: new Date(deps.clock.now()) },
        [],
      );
  }
}
