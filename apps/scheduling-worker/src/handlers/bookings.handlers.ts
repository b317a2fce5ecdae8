import { createHash } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import {
  bookingInterval,
  input,
  isWithinAvailability,
  presentBooking,
  schedulingEvent,
  type BookingDoc,
  type EventTypeDoc,
  type Interval,
} from '@platform/scheduling';
import { changeWithEvent, createOnce, payloadOf, userLookup, type Msg } from './common.js';
import type { HandlerDeps } from './deps.js';
import { release, reserve } from './host-calendars.js';

type BookingMsg = Msg<(typeof MessageTypeNames)['BookingCommand']>;

/** The booking a command makes has a uid derived from the command: a redone command makes the same one. */
const uidOf = (commandId: string) => createHash('sha256').update(commandId).digest('base64url').slice(0, 22);

const outOfHours = () => new InputError('outside_availability', 'The requested time is outside the availability of the event type\'s hosts.');
const taken = () => new ConflictError('time_taken', 'The requested time is already booked.');
const bookingNotFound = (uid: string) => new NotFoundError('not_found', `Booking ${uid} not found.`);

async function candidateHosts(deps: HandlerDeps, eventType: EventTypeDoc): Promise<string[]> {
  if (eventType.team_id === null) return [eventType.owner_user_id!];
  const members = (await deps.store.membershipsOfTeam(eventType.team_id)).filter((m) => m.accepted).map((m) => m.user_id);
  const hosts = eventType.host_user_ids.length > 0 ? eventType.host_user_ids.filter((h) => members.includes(h)) : members;
  if (hosts.length === 0) throw new InputError('no_hosts', 'The event type has no hosts.');
  return hosts;
}

/** Whether a host's default schedule covers the interval (a host without a schedule is never available). */
async function available(deps: HandlerDeps, hostId: string, interval: Interval): Promise<boolean> {
  const schedules = await deps.store.schedulesOfUsers([hostId]);
  const schedule = schedules.find((s) => s.is_default) ?? schedules[0];
  if (!schedule) return false;
  return isWithinAvailability({ timeZone: schedule.time_zone, weekly: schedule.availability, overrides: schedule.overrides }, interval);
}

/**
 * Collective event types need every host free and available; round-robin ones the first such host, the
 * least booked first. Returns the hosts whose calendars now hold the interval for `uid`.
 */
async function takeHosts(deps: HandlerDeps, eventType: EventTypeDoc, uid: string, interval: Interval, ignoreUid?: string): Promise<string[]> {
  const hosts = await candidateHosts(deps, eventType);
  if (eventType.scheduling_type === 'ROUND_ROBIN') {
    const load = new Map<string, number>();
    for (const h of hosts) load.set(h, (await deps.store.hostCalendar(h))?.busy.length ?? 0);
    let anyAvailable = false;
    for (const host of [...hosts].sort((a, b) => load.get(a)! - load.get(b)!)) {
      if (!(await available(deps, host, interval))) continue;
      anyAvailable = true;
      if (await reserve(deps.store, host, uid, interval, ignoreUid)) return [host];
    }
    throw anyAvailable ? taken() : outOfHours();
  }
  for (const host of hosts) if (!(await available(deps, host, interval))) throw outOfHours();
  const reserved: string[] = [];
  for (const host of hosts) {
    if (await reserve(deps.store, host, uid, interval, ignoreUid)) {
      reserved.push(host);
      continue;
    }
    for (const r of reserved) await release(deps.store, r, uid);
    throw taken();
  }
  return reserved;
}

function startOf(body: Record<string, unknown>, lengthInMinutes: number): Interval {
  const start = input.requiredString(body, 'start', 40);
  const interval = bookingInterval(start, lengthInMinutes);
  if (interval.start.getTime() < Date.now()) throw new InputError('bad_request', 'start must be in the future.');
  return interval;
}

function createdEvent(b: BookingDoc) {
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
    occurred_at: Date.now(),
  };
}

async function insertBooking(deps: HandlerDeps, commandId: string, fields: Omit<BookingDoc, '_id' | 'id' | 'command_id' | 'created_at' | 'updated_at' | 'deleted_at' | 'outbox' | 'has_outbox'>) {
  return createOnce(
    () => deps.store.bookingByCommand(commandId),
    async () => {
      const id = await deps.store.nextId('booking');
      const at = new Date();
      const doc: BookingDoc = { _id: String(id), id, command_id: commandId, created_at: at, updated_at: at, deleted_at: null, has_outbox: true, outbox: [], ...fields };
      doc.outbox.push(schedulingEvent(MessageTypeNames.BookingCreated, doc.uid, createdEvent(doc)));
      await deps.store.models.Booking.create(doc);
      deps.touched?.('sched_bookings', doc._id);
      return doc;
    },
  );
}

async function liveEventType(deps: HandlerDeps, id: number): Promise<EventTypeDoc> {
  const eventType = await deps.store.eventType(id);
  const ownerGone = eventType && eventType.team_id !== null && !(await deps.store.team(eventType.team_id));
  if (!eventType || ownerGone) throw new NotFoundError('not_found', `Event type ${id} not found.`);
  return eventType;
}

/** The public booking endpoints: create, cancel and reschedule need no token. */
export async function bookingCommand(deps: HandlerDeps, message: BookingMsg): Promise<unknown> {
  const v = message.value;
  const body = payloadOf(message);
  const commandId = message.meta.id;
  switch (v.action) {
    case 'create': {
      const existing = await deps.store.bookingByCommand(commandId);
      if (existing) return presentBooking(existing, await userLookup(deps, existing.host_user_ids));
      const eventType = await liveEventType(deps, input.positiveId(body['eventTypeId'], 'eventTypeId'));
      const length = input.lengthInMinutes(body, false);
      if (length !== undefined && length !== eventType.length_in_minutes) {
        throw new InputError('bad_request', `lengthInMinutes must be the event type's length, ${eventType.length_in_minutes}.`);
      }
      const interval = startOf(body, eventType.length_in_minutes);
      const attendee = input.attendeeOf(body);
      const uid = uidOf(commandId);
      const hosts = await takeHosts(deps, eventType, uid, interval);
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
    case 'cancel': {
      const uid = v.target_id ?? '';
      const booking = await deps.store.booking(uid);
      if (!booking) throw bookingNotFound(uid);
      const reason = input.optionalString(body, 'cancellationReason', 2000) ?? null;
      if (booking.status === 'cancelled') {
        if (booking.cancelled_by === commandId) return presentBooking(booking, await userLookup(deps, booking.host_user_ids));
        throw new InputError('already_cancelled', `Booking ${uid} is already cancelled.`);
      }
      const result = await deps.store.models.Booking.updateOne(
        { _id: booking._id, status: 'accepted' },
        changeWithEvent({ status: 'cancelled', cancellation_reason: reason, cancelled_by: commandId }, MessageTypeNames.BookingCancelled, uid, {
          booking_uid: uid,
          booking_id: booking.id,
          event_type_id: booking.event_type_id,
          team_id: booking.team_id,
          host_user_ids: booking.host_user_ids,
          reason,
          occurred_at: Date.now(),
        }),
      );
      if (result.modifiedCount !== 1) throw new InputError('already_cancelled', `Booking ${uid} is already cancelled.`);
      deps.touched?.('sched_bookings', booking._id);
      for (const host of booking.host_user_ids) await release(deps.store, host, uid);
      return presentBooking({ ...booking, status: 'cancelled', cancellation_reason: reason }, await userLookup(deps, booking.host_user_ids));
    }
    case 'reschedule': {
      const uid = v.target_id ?? '';
      const old = await deps.store.booking(uid);
      if (!old) throw bookingNotFound(uid);
      const newUid = uidOf(commandId);
      const done = await deps.store.bookingByCommand(commandId);
      if (old.status === 'cancelled' && !(done && old.rescheduled_to_uid === newUid)) {
        throw new InputError('already_cancelled', `Booking ${uid} is cancelled and cannot be rescheduled.`);
      }
      const eventType = await liveEventType(deps, old.event_type_id);
      const interval = done ? { start: done.start, end: done.end } : startOf(body, Math.round((old.end.getTime() - old.start.getTime()) / 60_000));
      const reason = input.optionalString(body, 'reschedulingReason', 2000) ?? null;
      const hosts = done ? done.host_user_ids : await takeHosts(deps, eventType, newUid, interval, uid);
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
        await deps.store.models.Booking.updateOne(
          { _id: old._id, status: 'accepted' },
          changeWithEvent({ status: 'cancelled', rescheduled_to_uid: newUid, rescheduling_reason: reason }, MessageTypeNames.BookingRescheduled, uid, {
            booking_uid: uid,
            new_booking_uid: newUid,
            event_type_id: old.event_type_id,
            team_id: old.team_id,
            new_start: interval.start.getTime(),
            new_end: interval.end.getTime(),
            reason,
            occurred_at: Date.now(),
          }),
        );
        deps.touched?.('sched_bookings', old._id);
      }
      for (const host of old.host_user_ids) await release(deps.store, host, uid);
      return presentBooking(created, await userLookup(deps, created.host_user_ids));
    }
    default:
      throw new InputError('bad_request', `Unknown booking action ${v.action}.`);
  }
}
