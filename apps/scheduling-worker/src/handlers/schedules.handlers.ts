import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import {
  assertMemberOfOrganization,
  assertSeesUserInOrganization,
  input,
  presentSchedule,
  validateAvailability,
  type ScheduleDoc,
  type ScheduleView,
} from '@platform/scheduling';
import { actorReach, change, createOnce, insert, payloadOf, type Fields, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';
import { outboxEvent } from '@platform/mongo';

export type ScheduleMsg = Msg<(typeof MessageTypeNames)['ScheduleCommand']>;

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

/** The schedule's availability fields from a body (`availability` weekly ranges, `overrides`, `timeZone`). */
function availabilityOf(body: Record<string, unknown>, current?: ScheduleDoc) {
  const merged = {
    timeZone: body['timeZone'] ?? current?.time_zone,
    availability: body['availability'] ?? current?.availability ?? [],
    overrides: body['overrides'] ?? current?.overrides ?? [],
  };
  return validateAvailability(merged);
}

/**
 * A user's schedules, written by the user (/v2/schedules, or their own path in an organization) or by an
 * admin of their organization (/v2/organizations/:orgId/users/:userId/schedules). A user's first schedule
 * becomes the default (bookings use the default).
 */
export async function scheduleCommand(
  deps: HandlerDeps,
  message: ScheduleMsg,
  body: Record<string, unknown> = payloadOf(message),
): Promise<ScheduleView> {
  const v = message.value;
  const reach = await actorReach(deps, v.actor_user_id);
  const userId = input.requiredString({ userId: v.target_user_id }, 'userId', 100);
  if (v.scope_org_id === null) {
    // /v2/schedules: a user's own schedules.
    if (userId !== v.actor_user_id) throw new NotFoundError('not_found', 'User not found.');
  } else {
    const org = assertMemberOfOrganization(reach, await deps.store.team(input.positiveId(v.scope_org_id, 'orgId')));
    assertSeesUserInOrganization(reach, org, userId, Boolean(await deps.store.membershipOf(org.id, userId)));
  }
  const owned = await deps.store.schedulesOfUsers([userId]);
  switch (v.action) {
    case 'create': {
      const availability = availabilityOf(body);
      const name = input.requiredString(body, 'name', 200);
      const isDefault = (input.optionalBoolean(body, 'isDefault') ?? false) || owned.length === 0;
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
    case 'update': {
      const current = owned.find((s) => s.id === input.positiveId(v.target_id, 'scheduleId'));
      if (!current) throw new NotFoundError('not_found', 'Schedule not found.');
      const availability = availabilityOf(body, current);
      const name = input.optionalString(body, 'name', 200);
      const isDefault = input.optionalBoolean(body, 'isDefault');
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
    case 'delete': {
      const current = owned.find((s) => s.id === input.positiveId(v.target_id, 'scheduleId'));
      if (!current) throw new NotFoundError('not_found', 'Schedule not found.');
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
    default:
      throw new InputError('bad_request', `Unknown schedule action ${v.action}.`);
  }
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
