import { MessageTypeNames } from '@platform/contracts';
import { input } from '@platform/scheduling';
import { signedIn, type Msg } from '../common.js';
import { createSchedule, deleteSchedule, updateSchedule } from '../schedules.handlers.js';
import {
  asIntent,
  dateOverrides,
  familyRecordHandler,
  requiredText,
  text,
  weeklyRanges,
  type Payload,
} from './family-record.js';

type ScheduleCommand = (typeof MessageTypeNames)['ScheduleCommand'];

const userOf = (m: Msg<ScheduleCommand>) => ({
  actor_user_id: signedIn(m.value.actor_user_id),
  org_id: m.value.scope_org_id,
  user_id: requiredText({ userId: m.value.target_user_id }, 'userId'),
  requested_at: m.value.requested_at,
});

const scheduleId = (m: Msg<ScheduleCommand>) => input.positiveId(m.value.target_id, 'scheduleId');

const scheduleFields = (payload: Payload) => ({
  time_zone: text(payload, 'timeZone'),
  availability: weeklyRanges(payload),
  overrides: dateOverrides(payload),
  is_default: input.optionalBoolean(payload, 'isDefault') ?? null,
});

export const scheduleCommand = familyRecordHandler<ScheduleCommand>('schedule', {
  create: (deps, m, payload) =>
    createSchedule(
      deps,
      asIntent(m, MessageTypeNames.CreateSchedule, {
        ...userOf(m),
        name: requiredText(payload, 'name'),
        ...scheduleFields(payload),
      }),
    ),
  update: (deps, m, payload) =>
    updateSchedule(
      deps,
      asIntent(m, MessageTypeNames.UpdateSchedule, {
        ...userOf(m),
        schedule_id: scheduleId(m),
        name: text(payload, 'name'),
        ...scheduleFields(payload),
      }),
    ),
  delete: (deps, m) =>
    deleteSchedule(deps, asIntent(m, MessageTypeNames.DeleteSchedule, { ...userOf(m), schedule_id: scheduleId(m) })),
});
