import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchedulingUserDoc } from '@platform/identity';
import type { Scope } from '@platform/oauth';
import { MessageTypeNames } from '@platform/contracts';
import { runConsumer, type ConsumerHandle, type IncomingMessage } from '@platform/kafka';
import { SCHEDULING_TOPICS } from '@platform/scheduling';
import { waitFor } from '@platform/testing';
import { isScope, type Scope as AnyScope } from '@platform/oauth';
import { ROUTES, type RouteSpec } from '../../apps/scheduling-gateway/src/api/route-table.js';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack.js';

let stack: OAuthStack;
let owner: SchedulingUserDoc;
let member: SchedulingUserDoc;
let outsider: SchedulingUserDoc;
let orgId: number;
let observer: ConsumerHandle;
const events: IncomingMessage[] = [];
const N = MessageTypeNames;

type Data = Record<string, unknown> & { id: number; uid: string };

/** An access token as the token endpoint issues it (the bearer check needs nothing else). */
function tokenFor(user: SchedulingUserDoc, scopes: Scope[], legacy = false): string {
  return stack.accessTokens.issue({
    sub: user._id,
    cid: 'cal_test_client',
    gid: `grt_${user._id}`,
    scp: scopes,
    legacy,
  }).token;
}

const ALL: Scope[] = [
  'EVENT_TYPE_READ',
  'EVENT_TYPE_WRITE',
  'SCHEDULE_READ',
  'SCHEDULE_WRITE',
  'BOOKING_READ',
  'TEAM_PROFILE_READ',
  'TEAM_PROFILE_WRITE',
  'TEAM_EVENT_TYPE_READ',
  'TEAM_EVENT_TYPE_WRITE',
  'TEAM_BOOKING_READ',
  'TEAM_SCHEDULE_READ',
  'TEAM_MEMBERSHIP_READ',
  'TEAM_MEMBERSHIP_WRITE',
  'ORG_EVENT_TYPE_READ',
  'ORG_BOOKING_READ',
  'ORG_SCHEDULE_READ',
  'ORG_SCHEDULE_WRITE',
  'ORG_PROFILE_READ',
  'ORG_PROFILE_WRITE',
];

async function api(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string | null, body?: unknown) {
  const response = await stack.gateway.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || '{}') as {
      status: string;
      data: Data;
      error?: { code: string; message: string };
    },
  };
}

/** The next Monday (UTC) at least two days ahead, at hh:mm. */
function nextMondayAt(hh: number, mm = 0): Date {
  const d = new Date(Date.now() + 2 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7));
  d.setUTCHours(hh, mm, 0, 0);
  return d;
}

beforeAll(async () => {
  stack = await startOAuthStack();
  [owner, member, outsider] = await Promise.all([stack.newUser(), stack.newUser(), stack.newUser()]);
  // Organizations are made by the operator's commands (cli orgs create / add-member), as here.
  const org = await stack.commands.send(N.CreateOrganization, 'operator', {
    name: 'Acme',
    owner_user_id: owner._id,
    slug: null,
    time_zone: null,
  });
  orgId = org.id;
  await stack.commands.send(N.AddOrganizationMember, 'operator', {
    org_id: orgId,
    user_id: member._id,
    role: 'MEMBER',
  });
  // Delivery is at least once: an observer dedupes by event id, as any consumer does.
  const record = async (m: IncomingMessage) => void (events.some((e) => e.meta.id === m.meta.id) || events.push(m));
  const types = [
    N.TeamChanged,
    N.MembershipChanged,
    N.EventTypeChanged,
    N.ScheduleChanged,
    N.BookingCreated,
    N.BookingCancelled,
    N.BookingRescheduled,
    N.PhoneCallRequested,
  ];
  observer = await runConsumer({
    client: stack.kafka,
    groupId: `${stack.name}-observer`,
    topics: [SCHEDULING_TOPICS.events],
    fromBeginning: true,
    handlers: Object.fromEntries(types.map((t) => [t, record])) as never,
  });
  await observer.ready;
  const always = await api(
    'POST',
    `/v2/organizations/${orgId}/users/${owner._id}/schedules`,
    tokenFor(owner, ['ORG_SCHEDULE_WRITE']),
    {
      name: 'Always',
      timeZone: 'UTC',
      availability: [
        {
          days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
          startTime: '00:00',
          endTime: '24:00',
        },
      ],
    },
  );
  expect(always.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await observer?.stop();
  await stack?.close();
});

describe('teams, memberships, event types, schedules and bookings', () => {
  it('runs the whole flow: team, member, event type, schedule, book, reschedule, cancel', async () => {
    const token = tokenFor(owner, ALL);
    const team = await api('POST', `/v2/organizations/${orgId}/teams`, token, { name: 'Sales Team' });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    expect(team.body).toMatchObject({
      status: 'success',
      data: { name: 'Sales Team', slug: 'sales-team', parentId: orgId, isOrganization: false },
    });
    const teamId = team.body.data.id as number;

    const added = await api('POST', `/v2/organizations/${orgId}/teams/${teamId}/memberships`, token, {
      userId: member._id,
      role: 'MEMBER',
      accepted: true,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({
      userId: member._id,
      teamId,
      role: 'MEMBER',
      accepted: true,
      user: { email: member.email },
    });
    const duplicate = await api('POST', `/v2/organizations/${orgId}/teams/${teamId}/memberships`, token, {
      userId: member._id,
    });
    expect(duplicate.status).toBe(409);

    const schedule = await api('POST', `/v2/organizations/${orgId}/users/${member._id}/schedules`, token, {
      name: 'Working hours',
      timeZone: 'UTC',
      availability: [
        { days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], startTime: '09:00', endTime: '17:00' },
      ],
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    expect(schedule.body.data).toMatchObject({ ownerId: member._id, timeZone: 'UTC', isDefault: true });

    const eventType = await api('POST', `/v2/organizations/${orgId}/teams/${teamId}/event-types`, token, {
      title: 'Intro call',
      lengthInMinutes: 30,
      hosts: [{ userId: member._id }],
    });
    expect(eventType.status, JSON.stringify(eventType.body)).toBe(201);
    expect(eventType.body.data).toMatchObject({
      title: 'Intro call',
      slug: 'intro-call',
      lengthInMinutes: 30,
      teamId,
      hosts: [{ userId: member._id }],
    });
    const eventTypeId = eventType.body.data.id as number;

    const attendee = { name: 'Grace', email: 'grace@example.com', timeZone: 'Europe/Berlin' };
    const start = nextMondayAt(10);
    const booked = await api('POST', '/v2/bookings', null, { start: start.toISOString(), eventTypeId, attendee });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.data).toMatchObject({
      status: 'accepted',
      start: start.toISOString(),
      end: new Date(start.getTime() + 30 * 60_000).toISOString(),
      duration: 30,
      eventTypeId,
      hosts: [{ id: member._id, email: member.email }],
      attendees: [attendee],
    });
    const uid = booked.body.data.uid as string;

    const overlapping = await api('POST', '/v2/bookings', null, {
      start: nextMondayAt(10, 15).toISOString(),
      eventTypeId,
      attendee,
    });
    expect(overlapping.status).toBe(409);
    expect(overlapping.body.error).toEqual({ code: 'TIME_TAKEN', message: 'The requested time is already booked.' });
    const outOfHours = await api('POST', '/v2/bookings', null, {
      start: nextMondayAt(18).toISOString(),
      eventTypeId,
      attendee,
    });
    expect(outOfHours.status).toBe(400);
    expect(outOfHours.body.error?.code).toBe('OUTSIDE_AVAILABILITY');
    const adjacent = await api('POST', '/v2/bookings', null, {
      start: nextMondayAt(10, 30).toISOString(),
      eventTypeId,
      attendee,
    });
    expect(adjacent.status).toBe(201);
    // A cancellation without a body (its reason is optional) is a cancellation.
    const bare = await api('POST', `/v2/bookings/${adjacent.body.data.uid}/cancel`, null);
    expect(bare.status, JSON.stringify(bare.body)).toBe(200);
    expect(bare.body.data).toMatchObject({ status: 'cancelled' });
    // So is an invite link without one.
    expect((await api('POST', `/v2/organizations/${orgId}/teams/${teamId}/invite`, token)).status).toBe(200);

    const moved = await api('POST', `/v2/bookings/${uid}/reschedule`, null, {
      start: nextMondayAt(14).toISOString(),
      reschedulingReason: 'Conflict',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({
      status: 'accepted',
      rescheduledFromUid: uid,
      start: nextMondayAt(14).toISOString(),
    });
    const listed = await api('GET', `/v2/organizations/${orgId}/teams/${teamId}/bookings`, token);
    expect(listed.status).toBe(200);
    const old = (listed.body.data as unknown as Array<Record<string, unknown>>).find((b) => b['uid'] === uid);
    expect(old).toMatchObject({ status: 'cancelled', rescheduledToUid: moved.body.data.uid });
    // The old slot is free again.
    expect(
      (await api('POST', '/v2/bookings', null, { start: start.toISOString(), eventTypeId, attendee })).status,
    ).toBe(201);

    const cancelled = await api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, null, {
      cancellationReason: 'No longer needed',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancellationReason: 'No longer needed' });
    const again = await api('POST', `/v2/bookings/${moved.body.data.uid}/cancel`, null, {});
    expect(again.status).toBe(400);
    expect(again.body.error?.code).toBe('ALREADY_CANCELLED');
    expect(
      (await api('POST', `/v2/bookings/${uid}/reschedule`, null, { start: nextMondayAt(15).toISOString() })).status,
    ).toBe(400);
    expect((await api('POST', '/v2/bookings/nope/cancel', null, {})).status).toBe(404);
    expect(
      (await api('POST', '/v2/bookings/nope/reschedule', null, { start: nextMondayAt(15).toISOString() })).status,
    ).toBe(404);

    // Every change went out as an Avro event on scheduling.events, booking events keyed by booking uid.
    const newUid = moved.body.data.uid;
    await waitFor(
      () =>
        events.some(
          (e) => e.type === N.BookingCancelled && (e.value as { booking_uid: string }).booking_uid === newUid,
        ),
      { what: 'booking events' },
    );
    const ofBooking = (u: string) =>
      events.filter((e) => (e.value as { booking_uid?: string }).booking_uid === u).map((e) => e.type);
    expect(ofBooking(uid)).toEqual([N.BookingCreated, N.BookingRescheduled]);
    expect(ofBooking(newUid)).toEqual([N.BookingCreated, N.BookingCancelled]);
    const created = events.find(
      (e) => e.type === N.BookingCreated && (e.value as { booking_uid: string }).booking_uid === newUid,
    )!;
    expect(created.key).toBe(newUid);
    expect(created.value).toMatchObject({
      event_type_id: eventTypeId,
      team_id: teamId,
      host_user_ids: [member._id],
      attendee_email: 'grace@example.com',
      rescheduled_from_uid: uid,
    });
    expect(
      events.some(
        (e) =>
          e.type === N.MembershipChanged &&
          (e.value as { user_id: string; change: string }).user_id === member._id &&
          (e.value as { team_id: number }).team_id === teamId,
      ),
    ).toBe(true);
    expect(events.some((e) => e.type === N.TeamChanged && (e.value as { id: number }).id === teamId)).toBe(true);
  }, 60_000);

  it("serves a user's own event types, schedules and bookings with the user-level scopes", async () => {
    const token = tokenFor(outsider, [
      'EVENT_TYPE_WRITE',
      'EVENT_TYPE_READ',
      'SCHEDULE_WRITE',
      'SCHEDULE_READ',
      'BOOKING_READ',
    ]);
    const schedule = await api('POST', '/v2/schedules', token, {
      name: 'Evenings',
      timeZone: 'America/New_York',
      availability: [{ days: ['Monday'], startTime: '18:00', endTime: '22:00' }],
    });
    expect(schedule.status).toBe(201);
    expect(schedule.body.data).toMatchObject({ ownerId: outsider._id, isDefault: true, timeZone: 'America/New_York' });
    const eventType = await api('POST', '/v2/event-types', token, { title: 'Tutoring', lengthInMinutes: 60 });
    expect(eventType.status).toBe(201);
    expect(eventType.body.data).toMatchObject({
      teamId: null,
      ownerId: outsider._id,
      hosts: [{ userId: outsider._id }],
    });
    expect((await api('POST', '/v2/event-types', token, { title: 'Tutoring', lengthInMinutes: 30 })).status).toBe(409);
    expect(
      (
        await api('POST', '/v2/event-types', token, {
          title: 'Team-like',
          lengthInMinutes: 30,
          hosts: [{ userId: owner._id }],
        })
      ).status,
    ).toBe(400);

    // Monday 19:00 in New York, whatever the DST offset that day.
    const monday = nextMondayAt(12);
    const offset =
      Number(
        new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(
          monday,
        ),
      ) - 12;
    const start = new Date(
      Date.UTC(monday.getUTCFullYear(), monday.getUTCMonth(), monday.getUTCDate(), 19 - offset),
    ).toISOString();
    const booked = await api('POST', '/v2/bookings', null, {
      start,
      eventTypeId: eventType.body.data.id,
      attendee: { name: 'Student', email: 's@example.com', timeZone: 'UTC' },
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    const mine = await api('GET', '/v2/bookings', token);
    expect((mine.body.data as unknown as Array<{ uid: string }>).map((b) => b.uid)).toEqual([booked.body.data.uid]);
    expect((await api('GET', `/v2/bookings/${booked.body.data.uid}`, token)).body.data).toMatchObject({
      uid: booked.body.data.uid,
      status: 'accepted',
    });
    expect((await api('GET', `/v2/bookings/${booked.body.data.uid}`, tokenFor(member, ['BOOKING_READ']))).status).toBe(
      404,
    );
    expect(
      (await api('GET', `/v2/event-types/${eventType.body.data.id}`, tokenFor(member, ['EVENT_TYPE_READ']))).status,
    ).toBe(404);
    expect(
      (
        await api('PATCH', `/v2/schedules/${schedule.body.data.id}`, tokenFor(member, ['SCHEDULE_WRITE']), {
          name: 'Mine now',
        })
      ).status,
    ).toBe(404);
  }, 60_000);

  it('answers a redelivered booking command with the same booking, made once (the deprecated BookingCommand too)', async () => {
    const token = tokenFor(owner, ALL);
    const team = await api('POST', '/v2/teams', token, { name: 'Redelivery team' });
    const eventType = await api('POST', `/v2/teams/${team.body.data.id}/event-types`, token, {
      title: 'Once',
      lengthInMinutes: 30,
    });
    const commandId = `cmd_redelivery_${Date.now()}`;
    const send = () =>
      stack.commands.send(
        N.BookingCommand,
        'redelivery',
        {
          action: 'create',
          actor_user_id: null,
          target_id: null,
          scope_team_id: null,
          scope_org_id: null,
          payload: JSON.stringify({
            start: nextMondayAt(22).toISOString(),
            eventTypeId: eventType.body.data.id,
            attendee: { name: 'R', email: 'r@example.com', timeZone: 'UTC' },
          }),
        },
        { commandId },
      ) as Promise<{ uid: string; id: number }>;
    const first = await send();
    const second = await send();
    expect(second).toEqual(first);
    const stored = (await stack.scheduling.bookingsOfTeams([team.body.data.id])).filter(
      (b) => b.command_id === commandId,
    );
    expect(stored).toHaveLength(1);
    // The record of the current release, redelivered the same way.
    const createId = `cmd_redelivery_create_${Date.now()}`;
    const create = () =>
      stack.commands.send(
        N.CreateBooking,
        'redelivery',
        {
          event_type_id: eventType.body.data.id,
          start: nextMondayAt(21).toISOString(),
          length_in_minutes: null,
          attendee: { name: 'R', email: 'r@example.com', time_zone: 'UTC' },
        },
        { commandId: createId },
      );
    expect(await create()).toEqual(await create());
    expect(
      (await stack.scheduling.bookingsOfTeams([team.body.data.id])).filter((b) => b.command_id === createId),
    ).toHaveLength(1);
  }, 60_000);

  it('emits PhoneCallRequested for a create-phone-call request and validates the numbers', async () => {
    const token = tokenFor(owner, ALL);
    const team = await api('POST', '/v2/teams', token, { name: 'Phone team' });
    const eventType = await api('POST', `/v2/teams/${team.body.data.id}/event-types`, token, {
      title: 'Call me',
      lengthInMinutes: 15,
    });
    const url = `/v2/teams/${team.body.data.id}/event-types/${eventType.body.data.id}/create-phone-call`;
    const bad = await api('POST', url, token, { yourPhoneNumber: '12345', numberToCall: '+4930123456' });
    expect(bad.status).toBe(400);
    const call = await api('POST', url, token, {
      yourPhoneNumber: '+14155550100',
      numberToCall: '+4930123456',
      guestName: 'Ada',
    });
    expect(call.status).toBe(200);
    const callId = call.body.data['callId'] as string;
    expect(callId).toMatch(/^call_/);
    await waitFor(
      () => events.some((e) => e.type === N.PhoneCallRequested && (e.value as { call_id: string }).call_id === callId),
      { what: 'phone call event' },
    );
    const event = events.find(
      (e) => e.type === N.PhoneCallRequested && (e.value as { call_id: string }).call_id === callId,
    )!;
    expect(event.value).toMatchObject({
      event_type_id: eventType.body.data.id,
      from_number: '+14155550100',
      to_number: '+4930123456',
      actor_user_id: owner._id,
    });
  }, 60_000);

  it('keeps one host from being double-booked by concurrent requests', async () => {
    const token = tokenFor(owner, ALL);
    const team = await api('POST', '/v2/teams', token, { name: 'Race team' });
    expect(team.status).toBe(201);
    const teamId = team.body.data.id as number;
    const eventType = await api('POST', `/v2/teams/${teamId}/event-types`, token, {
      title: 'Race',
      lengthInMinutes: 60,
    });
    expect(eventType.status).toBe(201);
    const start = nextMondayAt(20).toISOString();
    const attempts = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        api('POST', '/v2/bookings', null, {
          start,
          eventTypeId: eventType.body.data.id,
          attendee: { name: `A${i}`, email: `a${i}@example.com`, timeZone: 'UTC' },
        }),
      ),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
  }, 60_000);
});

describe('scope enforcement, from the route table', () => {
  const ids: Record<string, string> = {};
  const routes = Object.values(ROUTES) as RouteSpec[];

  beforeAll(async () => {
    const token = tokenFor(owner, ALL);
    const standalone = await api('POST', '/v2/teams', token, { name: 'Scope team' });
    const orgTeam = await api('POST', `/v2/organizations/${orgId}/teams`, token, { name: 'Scope org team' });
    for (const [teamId] of [[standalone.body.data.id], [orgTeam.body.data.id]]) {
      await api('POST', `/v2/teams/${teamId}/memberships`, token, { userId: member._id, accepted: true });
    }
    const eventType = await api('POST', `/v2/teams/${orgTeam.body.data.id}/event-types`, token, {
      title: 'Scoped',
      lengthInMinutes: 15,
    });
    const standaloneEventType = await api('POST', `/v2/teams/${standalone.body.data.id}/event-types`, token, {
      title: 'Scoped',
      lengthInMinutes: 15,
    });
    const schedule = await api('POST', `/v2/organizations/${orgId}/users/${member._id}/schedules`, token, {
      name: 'Scoped',
      isDefault: true,
      timeZone: 'UTC',
      availability: [{ days: ['Monday'], startTime: '00:00', endTime: '24:00' }],
    });
    const booking = await api('POST', '/v2/bookings', null, {
      start: nextMondayAt(3).toISOString(),
      eventTypeId: eventType.body.data.id,
      attendee: { name: 'Scope', email: 'scope@example.com', timeZone: 'UTC' },
    });
    const membership = (await api('GET', `/v2/teams/${standalone.body.data.id}/memberships`, token)).body
      .data as unknown as Array<{ id: number }>;
    const personal = await api('POST', '/v2/event-types', token, { title: 'Personal', lengthInMinutes: 20 });
    const ownSchedules = (await api('GET', '/v2/schedules', token)).body.data as unknown as Array<{ id: number }>;
    const ownBooking = await api('POST', '/v2/bookings', null, {
      start: nextMondayAt(5).toISOString(),
      eventTypeId: personal.body.data.id,
      attendee: { name: 'Own', email: 'own@example.com', timeZone: 'UTC' },
    });
    Object.assign(ids, {
      T: String(standalone.body.data.id),
      OT: String(orgTeam.body.data.id),
      orgId: String(orgId),
      eventTypeId: String(eventType.body.data.id),
      standaloneEventTypeId: String(standaloneEventType.body.data.id),
      scheduleId: String(schedule.body.data.id),
      membershipId: String(membership[0]!.id),
      orgMembershipId: String(
        (
          (await api('GET', `/v2/teams/${orgTeam.body.data.id}/memberships`, token)).body.data as unknown as Array<{
            id: number;
          }>
        )[0]!.id,
      ),
      bookingUid: booking.body.data.uid,
      userId: member._id,
      personalEventTypeId: String(personal.body.data.id),
      ownScheduleId: String(ownSchedules[0]!.id),
      ownBookingUid: ownBooking.body.data.uid,
    });
  }, 60_000);

  /** A URL for the route: real ids for reads; for writes ids that do not exist, so that nothing changes. */
  function urlOf(spec: RouteSpec): string {
    const read = spec.method === 'GET';
    const inOrg = spec.url.startsWith('/v2/organizations/');
    const last = /:([A-Za-z]+)$/.exec(spec.url)?.[1];
    return spec.url.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
      if (name === 'teamId' && !read && last === 'teamId') return '999999';
      if (name === 'teamId') return inOrg ? ids['OT']! : ids['T']!;
      if (name === 'membershipId') return read ? (inOrg ? ids['orgMembershipId']! : ids['membershipId']!) : '999999';
      if (!read && ['eventTypeId', 'scheduleId', 'bookingUid'].includes(name))
        return name === 'bookingUid' ? 'no-such-booking' : '999999';
      if (spec.url.startsWith('/v2/event-types/')) return ids['personalEventTypeId']!;
      if (spec.url.startsWith('/v2/schedules/')) return ids['ownScheduleId']!;
      if (spec.url === '/v2/bookings/:bookingUid') return ids['ownBookingUid']!;
      if (name === 'eventTypeId' && !inOrg) return ids['standaloneEventTypeId']!;
      return ids[name]!;
    });
  }

  const call = (spec: RouteSpec, token: string | null) =>
    api(spec.method, urlOf(spec), token, spec.method === 'GET' || spec.method === 'DELETE' ? undefined : {});
  const guarded = routes.filter((r) => r.scope !== 'public');

  it('lists every endpoint of the spec tables and keeps the scopes without endpoints valid', () => {
    const tables = guarded.filter((r) => /^(TEAM|ORG)_/.test(r.scope));
    expect(tables).toHaveLength(49);
    expect(new Set(tables.map((r) => r.scope)).size).toBe(14);
    for (const scope of ['TEAM_BOOKING_WRITE', 'TEAM_SCHEDULE_WRITE', 'ORG_EVENT_TYPE_WRITE', 'ORG_BOOKING_WRITE'])
      expect(isScope(scope)).toBe(true);
  });

  it('allows each endpoint with its scope, with the implying ORG_ scope, and for legacy tokens; refuses it without', async () => {
    const without = (spec: RouteSpec) =>
      ALL.filter((s) => s !== spec.scope && s !== `ORG_${String(spec.scope).slice(5)}`);
    for (const spec of guarded) {
      const scope = spec.scope as AnyScope;
      const tokens: Array<[string, string]> = [
        ['listed', tokenFor(owner, [scope])],
        ['legacy', tokenFor(owner, [], true)],
      ];
      if (scope.startsWith('TEAM_')) tokens.push(['implied', tokenFor(owner, [`ORG_${scope.slice(5)}` as AnyScope])]);
      for (const [kind, token] of tokens) {
        const answer = await call(spec, token);
        const what = `${kind} ${spec.method} ${urlOf(spec)}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
        expect([401, 403], what).not.toContain(answer.status);
        if (spec.method === 'GET') expect(answer.status, what).toBe(200);
      }
      const refused = await call(spec, tokenFor(owner, without(spec)));
      expect(refused.status, `${spec.method} ${spec.url}`).toBe(403);
      expect(refused.body.error).toEqual({
        code: 'INSUFFICIENT_SCOPE',
        message: `The access token lacks the scope ${scope} that this endpoint requires.`,
      });
      expect((await call(spec, null)).status).toBe(401);
    }
  }, 120_000);

  it('needs no token on the three public booking endpoints', async () => {
    for (const spec of routes.filter((r) => r.scope === 'public')) {
      const answer = await call(spec, null);
      expect([400, 404], `${spec.url}: ${answer.status}`).toContain(answer.status);
    }
  });

  it("never shows another user's teams, organizations or their data, whatever the scopes", async () => {
    const stranger = await stack.newUser();
    const token = tokenFor(stranger, ALL);
    for (const spec of guarded) {
      const answer = await call(spec, token);
      const ownList = ['/v2/teams', '/v2/event-types', '/v2/schedules', '/v2/bookings'].includes(spec.url);
      if (ownList && spec.method === 'GET') {
        expect(answer.body.data, spec.url).toEqual([]);
        continue;
      }
      if (ownList && spec.method === 'POST') continue; // creating one's own team, event type or schedule is allowed
      expect([403, 404], `${spec.method} ${urlOf(spec)}: ${answer.status}`).toContain(answer.status);
    }
    const legacy = tokenFor(stranger, [], true);
    expect((await api('GET', `/v2/teams/${ids['T']}`, legacy)).status).toBe(404);
    expect((await api('GET', `/v2/organizations/${orgId}/bookings`, legacy)).status).toBe(404);
  }, 120_000);

  it('lets a member read but not manage the team', async () => {
    const token = tokenFor(member, ALL);
    expect((await api('GET', `/v2/teams/${ids['T']}/event-types`, token)).status).toBe(200);
    const edit = await api('PATCH', `/v2/teams/${ids['T']}`, token, { name: 'Renamed' });
    expect(edit.status).toBe(403);
    expect((await api('GET', `/v2/organizations/${orgId}/bookings`, token)).status).toBe(403);
    expect((await api('GET', `/v2/organizations/${orgId}/users/${member._id}/schedules`, token)).status).toBe(200);
    expect((await api('GET', `/v2/organizations/${orgId}/users/${owner._id}/schedules`, token)).status).toBe(403);
  });
});

describe('team roles, as Cal.com has them', () => {
  type Acting = 'MEMBER' | 'ADMIN' | 'OWNER';
  /**
   * A team made by its founder (its first owner), with the acting user in the given role, a plain member and a
   * user who is not in it yet; each action is tried on a team of its own, so that none depends on another.
   */
  async function teamWith(role: Acting) {
    const [founder, actor, plain, newcomer] = await Promise.all([
      stack.newUser(),
      stack.newUser(),
      stack.newUser(),
      stack.newUser(),
    ]);
    const founderToken = tokenFor(founder, ALL);
    const team = await api('POST', '/v2/teams', founderToken, { name: `Roles ${role} ${founder._id.slice(-6)}` });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.data.id;
    const memberships: Record<string, number> = {};
    for (const [user, userRole] of [
      [actor, role],
      [plain, 'MEMBER'],
    ] as const) {
      const added = await api('POST', `/v2/teams/${teamId}/memberships`, founderToken, {
        userId: user._id,
        role: userRole,
        accepted: true,
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      memberships[user._id] = added.body.data.id;
    }
    const listed = await api('GET', `/v2/teams/${teamId}/memberships`, founderToken);
    const founderMembership = (listed.body.data as unknown as Array<{ id: number; userId: string }>).find(
      (m) => m.userId === founder._id,
    )!.id;
    return {
      teamId,
      founderToken,
      token: tokenFor(actor, ALL),
      actorMembership: memberships[actor._id]!,
      plainMembership: memberships[plain._id]!,
      founderMembership,
      newcomer,
    };
  }

  const actions: Record<string, (t: Awaited<ReturnType<typeof teamWith>>) => Promise<number>> = {
    'rename the team': async (t) => (await api('PATCH', `/v2/teams/${t.teamId}`, t.token, { name: 'Renamed' })).status,
    'delete the team': async (t) => (await api('DELETE', `/v2/teams/${t.teamId}`, t.token)).status,
    'add a member': async (t) =>
      (await api('POST', `/v2/teams/${t.teamId}/memberships`, t.token, { userId: t.newcomer._id, accepted: true }))
        .status,
    'add an owner': async (t) =>
      (
        await api('POST', `/v2/teams/${t.teamId}/memberships`, t.token, {
          userId: t.newcomer._id,
          role: 'OWNER',
          accepted: true,
        })
      ).status,
    'make a member admin': async (t) =>
      (await api('PATCH', `/v2/teams/${t.teamId}/memberships/${t.plainMembership}`, t.token, { role: 'ADMIN' })).status,
    'make themself owner': async (t) =>
      (await api('PATCH', `/v2/teams/${t.teamId}/memberships/${t.actorMembership}`, t.token, { role: 'OWNER' })).status,
    'demote the founding owner': async (t) =>
      (await api('PATCH', `/v2/teams/${t.teamId}/memberships/${t.founderMembership}`, t.token, { role: 'MEMBER' }))
        .status,
    'remove the founding owner': async (t) =>
      (await api('DELETE', `/v2/teams/${t.teamId}/memberships/${t.founderMembership}`, t.token)).status,
    'remove a member': async (t) =>
      (await api('DELETE', `/v2/teams/${t.teamId}/memberships/${t.plainMembership}`, t.token)).status,
  };
  // Expected status per acting role: MEMBER, ADMIN, OWNER.
  const table: Record<string, [number, number, number]> = {
    'rename the team': [403, 403, 200],
    'delete the team': [403, 403, 200],
    'add a member': [403, 201, 201],
    'add an owner': [403, 403, 201],
    'make a member admin': [403, 200, 200],
    'make themself owner': [403, 403, 200],
    'demote the founding owner': [403, 403, 200],
    'remove the founding owner': [403, 403, 200],
    'remove a member': [403, 200, 200],
  };

  it('lets owners alone rename or delete a team, make owners and change owners; admins manage members', async () => {
    const roles: Acting[] = ['MEMBER', 'ADMIN', 'OWNER'];
    const seen: Record<string, number[]> = {};
    for (const [action, run] of Object.entries(actions)) {
      seen[action] = [];
      for (const role of roles) seen[action].push(await run(await teamWith(role)));
    }
    expect(seen).toEqual(table);
  }, 240_000);

  it('keeps at least one owner', async () => {
    const t = await teamWith('ADMIN');
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { role: 'ADMIN' }],
    ] as const) {
      const last = await api(method, `/v2/teams/${t.teamId}/memberships/${t.founderMembership}`, t.founderToken, body);
      expect(last, method).toMatchObject({ status: 409, body: { error: { code: 'LAST_OWNER' } } });
    }
  });
});

describe('request bodies', () => {
  it('are checked against the documented schema once access is settled, before any command is sent', async () => {
    const token = tokenFor(owner, ALL);
    const team = await api('POST', '/v2/teams', token, { name: `Bodies ${Date.now()}` });
    expect(team.status).toBe(201);
    const teamId = team.body.data.id;
    // The worker stores a reply for every command it handles, a refusal too: count them. A reply is stored with
    // its batch's, just after it is sent: a count is read once it has stopped moving.
    const stored = () => stack.mongo.db!.collection('sched_command_results').countDocuments();
    const handled = async () => {
      let count = await stored();
      for (let i = 0; i < 50; i++) {
        await sleep(100);
        const again = await stored();
        if (again === count) return count;
        count = again;
      }
      return count;
    };
    const before = await handled();
    const wrong = await api('POST', `/v2/teams/${teamId}/event-types`, token, { title: 42, lengthInMinutes: 30 });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toEqual({ code: 'BAD_REQUEST', message: 'title must be a string' });
    const missing = await api('POST', '/v2/schedules', token, { timeZone: 'Europe/Berlin' });
    expect(missing.body.error).toEqual({ code: 'BAD_REQUEST', message: 'name is required' });
    const stranger = tokenFor(await stack.newUser(), ALL);
    expect((await api('POST', `/v2/teams/${teamId}/event-types`, stranger, { title: 42 })).status).toBe(404);
    // Valid commands on the same keys follow the refused ones through the worker, so once they are answered a
    // refused one that had been sent would have been handled too: only these two were.
    expect(
      (await api('POST', `/v2/teams/${teamId}/event-types`, token, { title: 'Valid', lengthInMinutes: 30 })).status,
    ).toBe(201);
    expect(
      (await api('POST', '/v2/schedules', token, { name: 'Valid', timeZone: 'Europe/Berlin', availability: [] }))
        .status,
    ).toBe(201);
    expect(await handled()).toBe(before + 2);
  });

  it('answer every fault of their form with one code, wherever it is found, and a message naming it', async () => {
    const token = tokenFor(owner, ALL);
    const faults = [
      // The schema.
      await api('POST', '/v2/schedules', token, { timeZone: 'Europe/Berlin' }),
      // A member's rule, checked by the worker.
      await api('POST', '/v2/teams', token, { name: `Faults ${Date.now()}`, timeZone: 'Mars/Olympus_Mons' }),
      // The availability's rules.
      await api('POST', '/v2/schedules', token, {
        name: 'Backwards',
        timeZone: 'Europe/Berlin',
        availability: [{ days: ['Monday'], startTime: '17:00', endTime: '09:00' }],
      }),
    ];
    for (const fault of faults) {
      expect(fault.status).toBe(400);
      expect(fault.body.error?.code).toBe('BAD_REQUEST');
      expect(fault.body.error?.message).toMatch(/[a-z]/);
    }
  });

  it('become one command per intent, telling a field sent as null from one left out', async () => {
    const token = tokenFor(owner, ALL);
    const team = await api('POST', '/v2/teams', token, {
      name: `Intents ${Date.now()}`,
      logoUrl: 'https://example.com/logo.png',
      bio: 'We meet.',
    });
    expect(team.body.data).toMatchObject({ logoUrl: 'https://example.com/logo.png', bio: 'We meet.' });
    const cleared = await api('PATCH', `/v2/teams/${team.body.data.id}`, token, { logoUrl: null });
    expect(cleared.body.data).toMatchObject({ logoUrl: null, bio: 'We meet.' });
    await waitFor(() =>
      events.some(
        (e) =>
          e.type === N.TeamChanged &&
          (e.value as { id: number; change: string }).id === team.body.data.id &&
          (e.value as { change: string }).change === 'updated',
      ),
    );
    const schedule = await api('POST', '/v2/schedules', token, {
      name: 'Mornings',
      timeZone: 'Europe/Berlin',
      availability: [{ days: ['Monday', 'Tuesday'], startTime: '08:00', endTime: '12:00' }],
    });
    expect(schedule.status).toBe(201);
    expect(schedule.body.data).toMatchObject({
      timeZone: 'Europe/Berlin',
      availability: [{ days: ['Monday', 'Tuesday'], startTime: '08:00', endTime: '12:00' }],
    });
    const renamed = await api('PATCH', `/v2/schedules/${schedule.body.data.id}`, token, { name: 'Early mornings' });
    expect(renamed.body.data).toMatchObject({
      name: 'Early mornings',
      availability: [{ days: ['Monday', 'Tuesday'], startTime: '08:00', endTime: '12:00' }],
    });
  });

  it('are still answered in the deprecated family records, for a gateway of the previous release', async () => {
    const reply = await stack.commands.send(N.TeamCommand, `user:${owner._id}`, {
      action: 'create',
      actor_user_id: owner._id,
      target_id: null,
      scope_team_id: null,
      scope_org_id: null,
      payload: JSON.stringify({ name: `Legacy ${Date.now()}` }),
    });
    expect(reply).toMatchObject({ name: expect.stringMatching(/^Legacy /), isOrganization: false });
  });

  it('are described field by field in /openapi.json, with every response of every route', async () => {
    const document = JSON.parse((await stack.gateway.inject({ method: 'GET', url: '/openapi.json' })).body) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }>;
            };
            responses: Record<string, unknown>;
          }
        >
      >;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const create = document.paths['/v2/teams/{teamId}/event-types']!['post']!;
    const body = create.requestBody!.content['application/json']!.schema;
    expect(body.required).toEqual(['title', 'lengthInMinutes']);
    expect(Object.keys(body.properties!)).toEqual(
      expect.arrayContaining(['title', 'lengthInMinutes', 'slug', 'hosts', 'schedulingType']),
    );
    expect(Object.keys(create.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '414',
      '415',
      '500',
      '503',
      '504',
    ]);
    // A booking is a named component the answer refers to.
    const booking = JSON.stringify(document.paths['/v2/bookings/{bookingUid}']!['get']!.responses['200']);
    expect(booking).toContain('"$ref":"#/components/schemas/Booking"');
    for (const field of ['uid', 'start', 'end', 'attendees', 'rescheduledToUid'])
      expect(Object.keys(document.components.schemas['Booking']!.properties)).toContain(field);
  });
});

describe('a path parameter longer than the router allows', () => {
  it('is 414 with the error body of the API', async () => {
    const answer = await api('GET', `/v2/teams/${'1'.repeat(8193)}`, null);
    expect(answer.status).toBe(414);
    expect(answer.body).toMatchObject({
      status: 'error',
      error: { code: 'URI_TOO_LONG', message: 'A path parameter is longer than 8192 characters.' },
    });
  });
});
