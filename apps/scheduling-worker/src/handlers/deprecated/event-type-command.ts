import { MessageTypeNames } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { input } from '@platform/scheduling';
import { signedIn, type Msg } from '../common.js';
import {
  PHONE_CALL_DETAILS,
  createEventType,
  deleteEventType,
  requestPhoneCall,
  updateEventType,
} from '../event-types.handlers.js';
import {
  asIntent,
  familyRecordHandler,
  number,
  requiredNumber,
  requiredText,
  text,
  type Payload,
} from './family-record.js';

type EventTypeCommand = (typeof MessageTypeNames)['EventTypeCommand'];

/** A team's event types, or (without a team) the acting user's own. */
const scopeOf = (m: Msg<EventTypeCommand>) => ({
  actor_user_id: signedIn(m.value.actor_user_id),
  org_id: m.value.scope_org_id,
  team_id: m.value.scope_team_id,
  requested_at: m.value.requested_at,
});

const eventTypeId = (m: Msg<EventTypeCommand>) => input.positiveId(m.value.target_id, 'eventTypeId');

const eventTypeFields = (payload: Payload) => ({
  slug: text(payload, 'slug'),
  description: text(payload, 'description'),
  scheduling_type: input.optionalSchedulingType(payload) ?? null,
  host_user_ids: input.optionalHosts(payload) ?? null,
});

const phoneCallDetails = (payload: Payload) =>
  Object.fromEntries(
    PHONE_CALL_DETAILS.flatMap((field) => {
      const value = text(payload, field);
      return value === null ? [] : [[field, value]];
    }),
  );

export const eventTypeCommand = familyRecordHandler<EventTypeCommand>('event type', {
  create: (deps, m, payload) =>
    createEventType(
      deps,
      asIntent(m, MessageTypeNames.CreateEventType, {
        ...scopeOf(m),
        title: requiredText(payload, 'title'),
        length_in_minutes: requiredNumber(payload, 'lengthInMinutes'),
        ...eventTypeFields(payload),
      }),
    ),
  update: (deps, m, payload) =>
    updateEventType(
      deps,
      asIntent(m, MessageTypeNames.UpdateEventType, {
        ...scopeOf(m),
        event_type_id: eventTypeId(m),
        title: text(payload, 'title'),
        length_in_minutes: number(payload, 'lengthInMinutes'),
        ...eventTypeFields(payload),
      }),
    ),
  delete: (deps, m) =>
    deleteEventType(
      deps,
      asIntent(m, MessageTypeNames.DeleteEventType, { ...scopeOf(m), event_type_id: eventTypeId(m) }),
    ),
  phone_call: async (deps, m, payload) => {
    const { team_id, ...owner } = scopeOf(m);
    if (team_id === null) throw new InputError('bad_request', 'Phone calls are for team event types.');
    return requestPhoneCall(
      deps,
      asIntent(m, MessageTypeNames.RequestPhoneCall, {
        ...owner,
        team_id,
        event_type_id: eventTypeId(m),
        your_phone_number: requiredText(payload, 'yourPhoneNumber'),
        number_to_call: requiredText(payload, 'numberToCall'),
        template_type: text(payload, 'templateType'),
        details: phoneCallDetails(payload),
      }),
    );
  },
});
