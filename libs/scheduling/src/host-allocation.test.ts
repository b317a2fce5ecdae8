import { describe, expect, it } from 'vitest';
import type { WeeklyRange } from './availability/index.js';
import { storedAggregate } from './testing.js';
import {
  allocateHosts,
  collectiveHosts,
  eventTypeHosts,
  isAvailable,
  roundRobinOrder,
  takeAll,
  takeFirstFree,
  type HostAllocationDeps,
} from './host-allocation.js';
import type { EventTypeDoc, HostCalendarDoc, MembershipDoc, ScheduleDoc } from './store.js';

const created = new Date('2030-01-01T00:00:00Z');
const base = storedAggregate(created);

const WEEKDAYS: WeeklyRange = {
  days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
  startTime: '09:00',
  endTime: '17:00',
};
const WEEKENDS: WeeklyRange = { days: ['Saturday', 'Sunday'], startTime: '09:00', endTime: '17:00' };

let nextId = 1;
const schedule = (userId: string, weekly: WeeklyRange[], isDefault = true): ScheduleDoc => ({
  ...base,
  _id: String(nextId),
  id: nextId++,
  user_id: userId,
  name: `${userId}'s`,
  time_zone: 'UTC',
  availability: weekly,
  overrides: [],
  is_default: isDefault,
});

const member = (teamId: number, userId: string, accepted = true): MembershipDoc => ({
  ...base,
  _id: `${teamId}:${userId}`,
  id: nextId++,
  team_id: teamId,
  user_id: userId,
  role: 'MEMBER',
  accepted,
});

const eventType = (fields: Partial<EventTypeDoc> = {}): EventTypeDoc => ({
  ...base,
  _id: '7',
  id: 7,
  team_id: 1,
  owner_user_id: null,
  title: 'Intro',
  slug: 'intro',
  description: null,
  length_in_minutes: 30,
  host_user_ids: [],
  scheduling_type: 'COLLECTIVE',
  ...fields,
});

/** Tuesday 2030-01-08, 10:00-10:30 UTC. */
const tuesday = { start: new Date('2030-01-08T10:00:00Z'), end: new Date('2030-01-08T10:30:00Z') };
const saturday = { start: new Date('2030-01-12T10:00:00Z'), end: new Date('2030-01-12T10:30:00Z') };

/** Host calendars in memory, with the compare-and-set on `version` the store has. */
function calendarsOf(busy: Record<string, Array<{ uid: string; start: Date; end: Date }>> = {}) {
  const calendars = new Map<string, HostCalendarDoc>(
    Object.entries(busy).map(([host, entries]) => [host, { _id: host, version: 0, busy: entries }]),
  );
  return {
    store: { hostCalendar: async (host: string) => structuredClone(calendars.get(host) ?? null) },
    writer: {
      hostCalendars: {
        async create(host: string) {
          if (calendars.has(host)) return false;
          calendars.set(host, { _id: host, version: 0, busy: [] });
          return true;
        },
        async replaceBusy(host: string, version: number, entries: HostCalendarDoc['busy']) {
          if (calendars.get(host)?.version !== version) return false;
          calendars.set(host, { _id: host, version: version + 1, busy: entries });
          return true;
        },
      },
    },
    bookingsOf: (host: string) => calendars.get(host)?.busy.map((b) => b.uid) ?? [],
  };
}

const at = (from: string, to: string, uid: string) => ({ uid, start: new Date(from), end: new Date(to) });
/** Another booking overlapping `tuesday`. */
const overlapping = (uid: string) => at('2030-01-08T09:45:00Z', '2030-01-08T10:15:00Z', uid);
/** Another booking on Wednesday, which only adds to the host's load. */
const elsewhere = (uid: string) => at('2030-01-09T10:00:00Z', '2030-01-09T10:30:00Z', uid);

describe('eventTypeHosts', () => {
  it('hosts a personal event type by its owner', () => {
    expect(eventTypeHosts(eventType({ team_id: null, owner_user_id: 'ann' }), [])).toEqual(['ann']);
  });

  it('hosts a team event type naming no hosts by every accepted member', () => {
    expect(eventTypeHosts(eventType(), ['ann', 'bob'])).toEqual(['ann', 'bob']);
  });

  it('keeps the fixed hosts an event type names, in its order, while they are accepted members', () => {
    const named = eventType({ host_user_ids: ['cat', 'ann', 'gone'] });
    expect(eventTypeHosts(named, ['ann', 'bob', 'cat'])).toEqual(['cat', 'ann']);
  });

  it('refuses an event type left without hosts', () => {
    expect(() => eventTypeHosts(eventType({ host_user_ids: ['gone'] }), ['ann'])).toThrow(
      expect.objectContaining({ code: 'no_hosts', message: 'The event type has no hosts.' }),
    );
    expect(() => eventTypeHosts(eventType(), [])).toThrow(expect.objectContaining({ code: 'no_hosts' }));
  });
});

describe('isAvailable', () => {
  it("reads the host's default schedule, else their first, and never finds a host without one available", () => {
    expect(isAvailable([schedule('ann', [WEEKENDS], false), schedule('ann', [WEEKDAYS], true)], tuesday)).toBe(true);
    expect(isAvailable([schedule('ann', [WEEKENDS], false), schedule('ann', [WEEKDAYS], false)], tuesday)).toBe(false);
    expect(isAvailable([], tuesday)).toBe(false);
  });
});

describe('roundRobinOrder', () => {
  const candidate = (userId: string, booked: number, weekly = [WEEKDAYS]) => ({
    userId,
    booked,
    schedules: [schedule(userId, weekly)],
  });

  it('tries the least booked available host first, ties in the order of the hosts', () => {
    const order = roundRobinOrder(
      [candidate('ann', 2), candidate('bob', 0), candidate('cat', 1), candidate('dan', 0)],
      tuesday,
    );
    expect(order).toEqual(['bob', 'dan', 'cat', 'ann']);
  });

  it('leaves out hosts outside their availability, and refuses when none is available', () => {
    expect(roundRobinOrder([candidate('ann', 0, [WEEKENDS]), candidate('bob', 3)], tuesday)).toEqual(['bob']);
    expect(() => roundRobinOrder([candidate('ann', 0, [WEEKENDS])], tuesday)).toThrow(
      expect.objectContaining({ code: 'outside_availability' }),
    );
  });
});

describe('collectiveHosts', () => {
  const candidate = (userId: string, weekly = [WEEKDAYS]) => ({ userId, schedules: [schedule(userId, weekly)] });

  it('takes every host, and refuses when any of them is outside their availability', () => {
    expect(collectiveHosts([candidate('ann'), candidate('bob')], tuesday)).toEqual(['ann', 'bob']);
    expect(() => collectiveHosts([candidate('ann'), candidate('bob', [WEEKENDS])], tuesday)).toThrow(
      expect.objectContaining({
        code: 'outside_availability',
        message: "The requested time is outside the availability of the event type's hosts.",
      }),
    );
  });
});

describe('takeFirstFree', () => {
  const booking = { uid: 'bk_new', interval: tuesday };

  it('skips a host whose calendar is busy then, and takes the next', async () => {
    const calendars = calendarsOf({ ann: [overlapping('bk_ann')] });
    await expect(takeFirstFree(calendars, ['ann', 'bob'], booking)).resolves.toEqual(['bob']);
    expect(calendars.bookingsOf('ann')).toEqual(['bk_ann']);
    expect(calendars.bookingsOf('bob')).toEqual(['bk_new']);
  });

  it('refuses when every host is busy', async () => {
    const calendars = calendarsOf({ ann: [overlapping('bk_ann')], bob: [overlapping('bk_bob')] });
    await expect(takeFirstFree(calendars, ['ann', 'bob'], booking)).rejects.toMatchObject({
      code: 'time_taken',
      message: 'The requested time is already booked.',
    });
  });

  it('takes the same host again for a redone booking', async () => {
    const calendars = calendarsOf({ ann: [at('2030-01-08T10:00:00Z', '2030-01-08T10:30:00Z', 'bk_new')] });
    await expect(takeFirstFree(calendars, ['ann', 'bob'], booking)).resolves.toEqual(['ann']);
    expect(calendars.bookingsOf('ann')).toEqual(['bk_new']);
  });
});

describe('takeAll', () => {
  const booking = { uid: 'bk_new', interval: tuesday };

  it("takes every host's time", async () => {
    const calendars = calendarsOf();
    await expect(takeAll(calendars, ['ann', 'bob'], booking)).resolves.toEqual(['ann', 'bob']);
    expect([calendars.bookingsOf('ann'), calendars.bookingsOf('bob')]).toEqual([['bk_new'], ['bk_new']]);
  });

  it('gives back the time it took when one host is busy, and refuses', async () => {
    const calendars = calendarsOf({ cat: [overlapping('bk_cat')] });
    await expect(takeAll(calendars, ['ann', 'bob', 'cat'], booking)).rejects.toMatchObject({ code: 'time_taken' });
    expect([calendars.bookingsOf('ann'), calendars.bookingsOf('bob'), calendars.bookingsOf('cat')]).toEqual([
      [],
      [],
      ['bk_cat'],
    ]);
  });

  it("lets a rescheduled booking's own time be taken again", async () => {
    const calendars = calendarsOf({ ann: [overlapping('bk_old')] });
    await expect(takeAll(calendars, ['ann'], { ...booking, ignoreUid: 'bk_old' })).resolves.toEqual(['ann']);
    expect(calendars.bookingsOf('ann')).toEqual(['bk_old', 'bk_new']);
  });
});

describe('allocateHosts', () => {
  function depsOf(
    memberships: MembershipDoc[],
    schedules: ScheduleDoc[],
    calendars = calendarsOf(),
  ): HostAllocationDeps & { bookingsOf: (host: string) => string[] } {
    return {
      ...calendars,
      store: {
        ...calendars.store,
        membershipsOfTeam: async (teamId: number) => memberships.filter((m) => m.team_id === teamId),
        schedulesOfUsers: async (ids: string[]) => schedules.filter((s) => ids.includes(s.user_id)),
      },
    };
  }
  const team = [member(1, 'ann'), member(1, 'bob'), member(1, 'cat'), member(1, 'pending', false)];
  const weekdays = ['ann', 'bob', 'cat', 'pending'].map((host) => schedule(host, [WEEKDAYS]));

  it('books every accepted member of a collective event type', async () => {
    const deps = depsOf(team, weekdays);
    await expect(allocateHosts(deps, eventType(), { uid: 'bk_1', interval: tuesday })).resolves.toEqual([
      'ann',
      'bob',
      'cat',
    ]);
    expect(deps.bookingsOf('pending')).toEqual([]);
  });

  it('books only the fixed hosts an event type names', async () => {
    const deps = depsOf(team, weekdays);
    const fixed = eventType({ host_user_ids: ['cat', 'ann'] });
    await expect(allocateHosts(deps, fixed, { uid: 'bk_1', interval: tuesday })).resolves.toEqual(['cat', 'ann']);
    expect(deps.bookingsOf('bob')).toEqual([]);
  });

  it('refuses a collective booking when a host is busy, or outside their availability', async () => {
    const busy = depsOf(team, weekdays, calendarsOf({ bob: [overlapping('bk_bob')] }));
    await expect(allocateHosts(busy, eventType(), { uid: 'bk_1', interval: tuesday })).rejects.toMatchObject({
      code: 'time_taken',
    });
    expect(busy.bookingsOf('ann')).toEqual([]);
    const away = depsOf(team, [...weekdays.filter((s) => s.user_id !== 'cat'), schedule('cat', [WEEKENDS])]);
    await expect(allocateHosts(away, eventType(), { uid: 'bk_1', interval: tuesday })).rejects.toMatchObject({
      code: 'outside_availability',
    });
  });

  it('books the least booked free host of a round-robin event type, busy hosts left out', async () => {
    const calendars = calendarsOf({
      ann: [elsewhere('a1'), elsewhere('a2')],
      bob: [overlapping('b1')],
      cat: [elsewhere('c1'), elsewhere('c2'), elsewhere('c3')],
    });
    const deps = depsOf(team, weekdays, calendars);
    const roundRobin = eventType({ scheduling_type: 'ROUND_ROBIN' });
    // bob is the least booked but busy then; ann is the less booked of the others, then as booked as cat.
    await expect(allocateHosts(deps, roundRobin, { uid: 'bk_1', interval: tuesday })).resolves.toEqual(['ann']);
    await expect(allocateHosts(deps, roundRobin, { uid: 'bk_2', interval: tuesday })).resolves.toEqual(['cat']);
    await expect(allocateHosts(deps, roundRobin, { uid: 'bk_3', interval: tuesday })).rejects.toMatchObject({
      code: 'time_taken',
    });
  });

  it('refuses a round-robin booking when no host is available then', async () => {
    const deps = depsOf(team, weekdays);
    const roundRobin = eventType({ scheduling_type: 'ROUND_ROBIN' });
    await expect(allocateHosts(deps, roundRobin, { uid: 'bk_1', interval: saturday })).rejects.toMatchObject({
      code: 'outside_availability',
    });
  });

  it('books the owner of a personal event type', async () => {
    const deps = depsOf([], [schedule('owner', [WEEKDAYS])]);
    const personal = eventType({ team_id: null, owner_user_id: 'owner' });
    await expect(allocateHosts(deps, personal, { uid: 'bk_1', interval: tuesday })).resolves.toEqual(['owner']);
  });

  it('refuses a team event type without accepted members', async () => {
    const deps = depsOf([member(1, 'pending', false)], weekdays);
    await expect(allocateHosts(deps, eventType(), { uid: 'bk_1', interval: tuesday })).rejects.toMatchObject({
      code: 'no_hosts',
    });
  });
});
