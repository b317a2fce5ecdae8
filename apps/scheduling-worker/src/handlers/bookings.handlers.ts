import { createHash } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import { outboxEvent } from '@platform/mongo';
import {
  allocateHosts,
  bookingInterval,
  presentBooking,
  releaseHostTime,
  type BookingDoc,
  type BookingView,
  type EventTypeDoc,
  type Interval,
} from '@platform/scheduling';
import { change, createOnce, insert, userLookup, type Fields, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';

/** The booking a command makes has a uid derived from the command: a redone command makes the same one. */
const uidOf = (commandId: string) => createHash('sha256').update(commandId).digest('base64url').slice(0, 22);

const bookingNotFound = (uid: string) => new NotFoundError('not_found', `Booking ${uid} not found.`);

function startOf(deps: HandlerDeps, start: string, lengthInMinutes: number): Interval {
  const interval = bookingInterval(start, lengthInMinutes);
  if (interval.start.getTime() < deps.clock.now()) throw new InputError('bad_request', 'start must be in the future.');
  return interval;
}

function createdEvent(b: Fields<BookingDoc>) {
  return {
    booking_uid: b.uid,
    booking_id: b.id,
    event_type_id: b.event_type_id,
    team_id: b.team_id,
    host_user_ids: b.host_user_ids,
    attendee_email: b.attendees[0]?.email ?? '',
    start: b.start.getTime(),
    end: b.end.getTime(),
    rescheduled_from_uid: b.rescheduled_from_uid,
    occurred_at: b.created_at.getTime(),
  };
}

async function insertBooking(
  deps: HandlerDeps,
  commandId: string,
  fields: Omit<
    BookingDoc,
    '_id' | 'id' | 'command_id' | 'created_at' | 'updated_at' | 'deleted_at' | 'outbox' | 'has_outbox'
  >,
) {
  return createOnce(
    () => deps.store.bookingByCommand(commandId),
    async () => {
      const id = await deps.writer.nextId('booking');
      const at = new Date(deps.clock.now());
      const doc: Fields<BookingDoc> = {
        _id: String(id),
        id,
        command_id: commandId,
        created_at: at,
        updated_at: at,
        deleted_at: null,
        ...fields,
      };
      const stored = await insert(deps, deps.writer.bookings, doc, [
        outboxEvent(MessageTypeNames.BookingCreated, doc.uid, createdEvent(doc)),
      ]);
      return stored;
    },
  );
}

async function liveEventType(deps: HandlerDeps, id: number): Promise<EventTypeDoc> {
  const eventType = await deps.store.eventType(id);
  const ownerGone = eventType && eventType.team_id !== null && !(await deps.store.team(eventType.team_id));
  if (!eventType || ownerGone) throw new NotFoundError('not_found', `Event type ${id} not found.`);
  return eventType;
}

type Create = Msg<(typeof MessageTypeNames)['CreateBooking']>;
type Cancel = Msg<(typeof MessageTypeNames)['CancelBooking']>;
type Reschedule = Msg<(typeof MessageTypeNames)['RescheduleBooking']>;

/** POST /v2/bookings: the hosts' calendars hold the time first, then the booking is stored with its event. */
export async function createBooking(deps: HandlerDeps, message: Create): Promise<BookingView> {
  const v = message.value;
  const commandId = message.meta.id;
  const existing = await deps.store.bookingByCommand(commandId);
  if (existing) return presentBooking(existing, await userLookup(deps, existing.host_user_ids));
  const eventType = await liveEventType(deps, v.event_type_id);
  if (v.length_in_minutes !== null && v.length_in_minutes !== eventType.length_in_minutes) {
    throw new InputError(
      'bad_request',
      `lengthInMinutes must be the event type's length, ${eventType.length_in_minutes}.`,
    );
  }
  const interval = startOf(deps, v.start, eventType.length_in_minutes);
  const attendee = { name: v.attendee.name, email: v.attendee.email, timeZone: v.attendee.time_zone };
  const uid = uidOf(commandId);
  const hosts = await allocateHosts(deps, eventType, { uid, interval });
  const booking = await insertBooking(deps, commandId, {
    uid,
    event_type_id: eventType.id,
    team_id: eventType.team_id,
    title: `${eventType.title} with ${attendee.name}`,
    host_user_ids: hosts,
    start: interval.start,
    end: interval.end,
    status: 'accepted',
    attendees: [attendee],
    cancellation_reason: null,
    rescheduling_reason: null,
    rescheduled_from_uid: null,
    rescheduled_to_uid: null,
  });
  return presentBooking(booking, await userLookup(deps, booking.host_user_ids));
}

export async function cancelBooking(deps: HandlerDeps, message: Cancel): Promise<BookingView> {
  const { booking_uid: uid, cancellation_reason: reason } = message.value;
  const commandId = message.meta.id;
  const booking = await deps.store.booking(uid);
  if (!booking) throw bookingNotFound(uid);
  if (booking.status === 'cancelled') {
    if (booking.cancelled_by === commandId)
      return presentBooking(booking, await userLookup(deps, booking.host_user_ids));
    throw new InputError('already_cancelled', `Booking ${uid} is already cancelled.`);
  }
  const cancelled = await change(
    deps,
    deps.writer.bookings,
    booking._id,
    { status: 'cancelled', cancellation_reason: reason, cancelled_by: commandId },
    MessageTypeNames.BookingCancelled,
    uid,
    {
      booking_uid: uid,
      booking_id: booking.id,
      event_type_id: booking.event_type_id,
      team_id: booking.team_id,
      host_user_ids: booking.host_user_ids,
      reason,
      occurred_at: deps.clock.now(),
    },
    { status: 'accepted' },
  );
  if (!cancelled) throw new InputError('already_cancelled', `Booking ${uid} is already cancelled.`);
  for (const host of booking.host_user_ids) await releaseHostTime(deps, host, uid);
  return presentBooking(
    { ...booking, status: 'cancelled', cancellation_reason: reason },
    await userLookup(deps, booking.host_user_ids),
  );
}

/** A new booking at the new time (made once per command), then the old one cancelled and pointed at it. */
export async function rescheduleBooking(deps: HandlerDeps, message: Reschedule): Promise<BookingView> {
  const { booking_uid: uid, rescheduling_reason: reason } = message.value;
  const commandId = message.meta.id;
  const old = await deps.store.booking(uid);
  if (!old) throw bookingNotFound(uid);
  const newUid = uidOf(commandId);
  const done = await deps.store.bookingByCommand(commandId);
  if (old.status === 'cancelled' && !(done && old.rescheduled_to_uid === newUid)) {
    throw new InputError('already_cancelled', `Booking ${uid} is cancelled and cannot be rescheduled.`);
  }
  const eventType = await liveEventType(deps, old.event_type_id);
  const interval = done
    ? { start: done.start, end: done.end }
    : startOf(deps, message.value.start, Math.round((old.end.getTime() - old.start.getTime()) / 60_000));
  const hosts = done
    ? done.host_user_ids
    : await allocateHosts(deps, eventType, { uid: newUid, interval, ignoreUid: uid });
  const created = await insertBooking(deps, commandId, {
    uid: newUid,
    event_type_id: old.event_type_id,
    team_id: old.team_id,
    title: old.title,
    host_user_ids: hosts,
    start: interval.start,
    end: interval.end,
    status: 'accepted',
    attendees: old.attendees,
    cancellation_reason: null,
    rescheduling_reason: reason,
    rescheduled_from_uid: uid,
    rescheduled_to_uid: null,
  });
  if (old.status === 'accepted') {
    await change(
      deps,
      deps.writer.bookings,
      old._id,
      { status: 'cancelled', rescheduled_to_uid: newUid, rescheduling_reason: reason },
      MessageTypeNames.BookingRescheduled,
      uid,
      {
        booking_uid: uid,
        new_booking_uid: newUid,
        event_type_id: old.event_type_id,
        team_id: old.team_id,
        new_start: interval.start.getTime(),
        new_end: interval.end.getTime(),
        reason,
        occurred_at: deps.clock.now(),
      },
      { status: 'accepted' },
    );
  }
  for (const host of old.host_user_ids) await releaseHostTime(deps, host, uid);
  return presentBooking(created, await userLookup(deps, created.host_user_ids));
}
