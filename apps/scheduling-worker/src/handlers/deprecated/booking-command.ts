import { MessageTypeNames } from '@platform/contracts';
import { cancelBookingFields, createBookingFields, rescheduleBookingFields } from '@platform/scheduling';
import { cancelBooking, createBooking, rescheduleBooking } from '../bookings.handlers.js';
import { asIntent, familyRecordHandler } from './family-record.js';

/** The public booking bodies are read with the checks the previous release's gateway left to the worker. */
export const bookingCommand = familyRecordHandler<(typeof MessageTypeNames)['BookingCommand']>('booking', {
  create: (deps, m, payload) =>
    createBooking(
      deps,
      asIntent(m, MessageTypeNames.CreateBooking, {
        ...createBookingFields(payload),
        requested_at: m.value.requested_at,
      }),
    ),
  cancel: (deps, m, payload) =>
    cancelBooking(
      deps,
      asIntent(m, MessageTypeNames.CancelBooking, {
        ...cancelBookingFields(m.value.target_id ?? '', payload),
        requested_at: m.value.requested_at,
      }),
    ),
  reschedule: (deps, m, payload) =>
    rescheduleBooking(
      deps,
      asIntent(m, MessageTypeNames.RescheduleBooking, {
        ...rescheduleBookingFields(m.value.target_id ?? '', payload),
        requested_at: m.value.requested_at,
      }),
    ),
});
