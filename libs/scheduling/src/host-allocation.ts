import { ConflictError, InputError } from '@platform/errors';
import { isWithinAvailability, type Interval } from './availability/index.js';
import { releaseHostTime, reserveHostTime, type HostCalendars } from './host-calendars.js';
import type { EventTypeDoc, ScheduleDoc, SchedulingStore } from './store.js';

/** The time a booking asks of its hosts; a rescheduled booking's own time (`ignoreUid`) does not conflict. */
export interface HostBooking {
  uid: string;
  interval: Interval;
  ignoreUid?: string;
}

export interface HostCandidate {
  userId: string;
  schedules: readonly ScheduleDoc[];
}

export interface RoundRobinCandidate extends HostCandidate {
  /** Entries in the host's calendar. */
  booked: number;
}

const outsideAvailability = () =>
  new InputError('outside_availability', "The requested time is outside the availability of the event type's hosts.");
const timeTaken = () => new ConflictError('time_taken', 'The requested time is already booked.');

/**
 * The hosts an event type is booked with: the owner of a personal one; for a team's, the hosts it names that
 * are still accepted members, or every accepted member when it names none.
 */
export function eventTypeHosts(
  eventType: Pick<EventTypeDoc, 'team_id' | 'owner_user_id' | 'host_user_ids'>,
  acceptedMembers: readonly string[],
): string[] {
  if (eventType.team_id === null) return [eventType.owner_user_id!];
  const hosts =
    eventType.host_user_ids.length > 0
      ? eventType.host_user_ids.filter((h) => acceptedMembers.includes(h))
      : [...acceptedMembers];
  if (hosts.length === 0) throw new InputError('no_hosts', 'The event type has no hosts.');
  return hosts;
}

/** Whether a host's default schedule (else their first) covers the interval; a host without one never is. */
export function isAvailable(schedules: readonly ScheduleDoc[], interval: Interval): boolean {
  const schedule = schedules.find((s) => s.is_default) ?? schedules[0];
  if (!schedule) return false;
  return isWithinAvailability(
    { timeZone: schedule.time_zone, weekly: schedule.availability, overrides: schedule.overrides },
    interval,
  );
}

/** Round robin: the available hosts, least booked first (ties keep the event type's order), to take one of. */
export function roundRobinOrder(candidates: readonly RoundRobinCandidate[], interval: Interval): string[] {
  const order = [...candidates]
    .sort((a, b) => a.booked - b.booked)
    .filter((c) => isAvailable(c.schedules, interval))
    .map((c) => c.userId);
  if (order.length === 0) throw outsideAvailability();
  return order;
}

/** Collective: every host, each of whom must be available. */
export function collectiveHosts(candidates: readonly HostCandidate[], interval: Interval): string[] {
  if (!candidates.every((c) => isAvailable(c.schedules, interval))) throw outsideAvailability();
  return candidates.map((c) => c.userId);
}

/** The first host, in order, whose calendar takes the booking. */
export async function takeFirstFree(
  calendars: HostCalendars,
  hosts: readonly string[],
  booking: HostBooking,
): Promise<string[]> {
  for (const host of hosts) {
    if (await reserveHostTime(calendars, host, booking.uid, booking.interval, booking.ignoreUid)) return [host];
  }
  throw timeTaken();
}

/** Every host's calendar takes the booking, or none keeps it. */
export async function takeAll(
  calendars: HostCalendars,
  hosts: readonly string[],
  booking: HostBooking,
): Promise<string[]> {
  const reserved: string[] = [];
  for (const host of hosts) {
    if (await reserveHostTime(calendars, host, booking.uid, booking.interval, booking.ignoreUid)) {
      reserved.push(host);
      continue;
    }
    for (const r of reserved) await releaseHostTime(calendars, r, booking.uid);
    throw timeTaken();
  }
  return reserved;
}

export type HostAllocationDeps = HostCalendars & {
  store: Pick<SchedulingStore, 'hostCalendar' | 'membershipsOfTeam' | 'schedulesOfUsers'>;
};

/**
 * Chooses the hosts of a booking and takes its time in their calendars: every host of a collective event
 * type, one of a round-robin one. Returns the hosts whose calendars now hold the time for `booking.uid`.
 */
export async function allocateHosts(
  deps: HostAllocationDeps,
  eventType: Pick<EventTypeDoc, 'team_id' | 'owner_user_id' | 'host_user_ids' | 'scheduling_type'>,
  booking: HostBooking,
): Promise<string[]> {
  const members =
    eventType.team_id === null
      ? []
      : (await deps.store.membershipsOfTeam(eventType.team_id)).filter((m) => m.accepted).map((m) => m.user_id);
  const hosts = eventTypeHosts(eventType, members);
  const schedules = await deps.store.schedulesOfUsers(hosts);
  const candidates = hosts.map((userId) => ({ userId, schedules: schedules.filter((s) => s.user_id === userId) }));
  if (eventType.scheduling_type !== 'ROUND_ROBIN')
    return takeAll(deps, collectiveHosts(candidates, booking.interval), booking);
  const booked: RoundRobinCandidate[] = [];
  for (const c of candidates)
    booked.push({ ...c, booked: (await deps.store.hostCalendar(c.userId))?.busy.length ?? 0 });
  return takeFirstFree(deps, roundRobinOrder(booked, booking.interval), booking);
}
