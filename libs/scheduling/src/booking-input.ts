import type { CancelBooking, CreateBooking, RescheduleBooking } from '@platform/contracts';
import { asObject, attendeeOf, lengthInMinutes, optionalString, positiveId, requiredString } from './input.js';

/**
 * The public booking bodies read into their command records. The gateway does this before sending (so a
 * malformed body is answered without a round trip); the worker does it for the deprecated BookingCommand.
 * Whether the time is free, in the future and within availability is the worker's to say.
 */
export function createBookingFields(body: unknown): Omit<CreateBooking, 'requested_at'> {
  const b = asObject(body);
  const eventTypeId = positiveId(b['eventTypeId'], 'eventTypeId');
  const length = lengthInMinutes(b['lengthInMinutes'], false);
  const start = requiredString(b, 'start', 40);
  const attendee = attendeeOf(b);
  return {
    event_type_id: eventTypeId,
    start,
    length_in_minutes: length ?? null,
    attendee: { name: attendee.name, email: attendee.email, time_zone: attendee.timeZone },
  };
}

export function cancelBookingFields(uid: string, body: unknown): Omit<CancelBooking, 'requested_at'> {
  return {
    booking_uid: uid,
    cancellation_reason: optionalString(asObject(body ?? {}), 'cancellationReason', 2000) ?? null,
  };
}

export function rescheduleBookingFields(uid: string, body: unknown): Omit<RescheduleBooking, 'requested_at'> {
  const b = asObject(body ?? {});
  return {
    booking_uid: uid,
    start: requiredString(b, 'start', 40),
    rescheduling_reason: optionalString(b, 'reschedulingReason', 2000) ?? null,
  };
}
