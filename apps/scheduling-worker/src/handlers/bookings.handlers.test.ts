import { describe, expect, it } from 'vitest';
import { MessageTypeNames } from '@platform/contracts';
import type {
  BookingDoc,
  EventTypeDoc,
  HostCalendarDoc,
  SchedulingStore,
  SchedulingWriter,
} from '@platform/scheduling';
import { storedAggregate } from '@platform/scheduling/testing';
import { fake, fakeClock, fakeMessage } from '@platform/testing';
import { cancelBooking, createBooking } from './bookings.handlers.js';
import { bookingCommand } from './deprecated/booking-command.js';
import type { HandlerDeps } from './deps.js';

const at = new Date('2030-01-07T09:00:00Z');
const aggregate = storedAggregate(at);
const eventType: EventTypeDoc = {
  ...aggregate,
  _id: '7',
  id: 7,
  team_id: null,
  owner_user_id: 'user_host',
  title: 'Intro',
  slug: 'intro',
  description: null,
  length_in_minutes: 30,
  host_user_ids: [],
  scheduling_type: 'COLLECTIVE',
};
const booking: BookingDoc = {
  ...aggregate,
  _id: '11',
  id: 11,
  uid: 'bk_1',
  event_type_id: 7,
  team_id: null,
  title: 'Intro with Ada',
  host_user_ids: ['user_host'],
  start: new Date('2030-01-08T10:00:00Z'),
  end: new Date('2030-01-08T10:30:00Z'),
  status: 'accepted',
  attendees: [{ name: 'Ada', email: 'ada@example.com', timeZone: 'Europe/London' }],
  cancellation_reason: null,
  rescheduling_reason: null,
  rescheduled_from_uid: null,
  rescheduled_to_uid: null,
};
const calendar: HostCalendarDoc = {
  _id: 'user_host',
  version: 3,
  busy: [{ uid: 'bk_1', start: booking.start, end: booking.end }],
};

function depsWith(store: Partial<SchedulingStore>, writer: Partial<SchedulingWriter> = {}, clock = fakeClock(at)) {
  const deps: HandlerDeps = {
    store: fake<SchedulingStore>(store),
    writer: fake<SchedulingWriter>(writer),
    users: { get: async () => null },
    webUrl: 'https://scheduling.test',
    inviteTtlSeconds: 3600,
    clock,
  };
  return {
    deps,
    store: deps.store as SchedulingStore & { calls: Array<{ method: string; args: unknown[] }> },
  };
}

const createValue = (start: string) => ({
  event_type_id: 7,
  start,
  length_in_minutes: null,
  attendee: { name: 'Ada', email: 'ada@example.com', time_zone: 'Europe/London' },
  requested_at: at.getTime(),
});

describe('booking handlers', () => {
  it("refuses a start before the clock's now, and holds no host time for it", async () => {
    const { deps, store } = depsWith({ bookingByCommand: async () => null, eventType: async () => eventType });
    const message = fakeMessage(MessageTypeNames.CreateBooking, createValue('2030-01-07T08:30:00Z'));
    await expect(createBooking(deps, message)).rejects.toMatchObject({
      code: 'bad_request',
      message: 'start must be in the future.',
    });
    expect(store.calls.map((c) => c.method)).toEqual(['bookingByCommand', 'eventType']);
  });

  it('answers a redone create with the booking it made the first time, without booking again', async () => {
    const { deps, store } = depsWith({ bookingByCommand: async () => booking });
    const reply = await createBooking(
      deps,
      fakeMessage(MessageTypeNames.CreateBooking, createValue('2030-01-08T10:00:00Z')),
    );
    expect(reply).toMatchObject({ uid: 'bk_1', status: 'accepted', start: '2030-01-08T10:00:00.000Z' });
    expect(store.calls.map((c) => c.method)).toEqual(['bookingByCommand']);
  });

  it("cancels with the event in the same write and frees the host's time", async () => {
    const bookings = fake<SchedulingWriter['bookings']>({ source: 'sched_bookings', change: async () => true });
    const hostCalendars = fake<SchedulingWriter['hostCalendars']>({ replaceBusy: async () => true });
    const { deps } = depsWith(
      { booking: async () => booking, hostCalendar: async () => calendar },
      { bookings, hostCalendars },
    );
    const message = fakeMessage(MessageTypeNames.CancelBooking, {
      booking_uid: 'bk_1',
      cancellation_reason: 'ill',
      requested_at: at.getTime(),
    });
    const reply = await cancelBooking(deps, message);
    expect(reply).toMatchObject({ uid: 'bk_1', status: 'cancelled', cancellationReason: 'ill' });
    const [filter, fields, events] = bookings.calls[0]!.args as [
      unknown,
      Record<string, unknown>,
      Array<{ type: string; topic: string }>,
    ];
    expect(filter).toEqual({ _id: '11', status: 'accepted' });
    expect(fields).toMatchObject({
      status: 'cancelled',
      cancellation_reason: 'ill',
      cancelled_by: message.meta.id,
      updated_at: at,
    });
    expect(events).toMatchObject([{ type: MessageTypeNames.BookingCancelled, topic: 'scheduling.events' }]);
    expect(hostCalendars.calls).toEqual([{ method: 'replaceBusy', args: ['user_host', 3, []] }]);
  });

  it('reads a deprecated BookingCommand into the record of its intent, and refuses an unknown action', async () => {
    const writer = {
      bookings: fake<SchedulingWriter['bookings']>({ source: 'sched_bookings', change: async () => true }),
      hostCalendars: fake<SchedulingWriter['hostCalendars']>({ replaceBusy: async () => true }),
    };
    const { deps } = depsWith({ booking: async () => booking, hostCalendar: async () => calendar }, writer);
    const legacy = (action: string) =>
      fakeMessage(MessageTypeNames.BookingCommand, {
        action,
        actor_user_id: null,
        target_id: 'bk_1',
        scope_team_id: null,
        scope_org_id: null,
        payload: JSON.stringify({ cancellationReason: 'moved away' }),
        requested_at: at.getTime(),
      });
    await expect(bookingCommand(deps, legacy('cancel'))).resolves.toMatchObject({
      uid: 'bk_1',
      status: 'cancelled',
      cancellationReason: 'moved away',
    });
    await expect(bookingCommand(deps, legacy('postpone'))).rejects.toMatchObject({
      code: 'bad_request',
      message: 'Unknown booking action postpone.',
    });
  });
});
