import type { BookingDoc, EventTypeDoc, MembershipDoc, ScheduleDoc, TeamDoc } from './store.js';

/** A document as the API shows it: its outbox is never part of it. */
type Fields<D> = Omit<D, 'outbox' | 'has_outbox'>;

/** What the API shows of a user of the scheduling service (from the identity directory). */
export interface UserSummary {
  id: string;
  name: string;
  email: string;
  timeZone: string;
}

export type UserLookup = (id: string) => UserSummary | undefined;

/** The users of `ids` from the identity directory (its `get`), once each, as a lookup for the presenters. */
export async function lookupUsers(
  get: (id: string) => Promise<{ name: string; email: string; time_zone: string } | null>,
  ids: Iterable<string>,
): Promise<UserLookup> {
  const found = new Map<string, UserSummary>();
  for (const id of new Set(ids)) {
    const user = await get(id);
    if (user) found.set(id, { id, name: user.name, email: user.email, timeZone: user.time_zone });
  }
  return (id) => found.get(id);
}

/** The response shapes follow the real scheduling service's API v2 (camelCase, numeric ids). */
export function presentTeam(team: Fields<TeamDoc>) {
  return {
    id: team.id,
    parentId: team.parent_id,
    name: team.name,
    slug: team.slug,
    logoUrl: team.logo_url,
    bio: team.bio,
    isOrganization: team.is_organization,
    timeZone: team.time_zone,
    weekStart: team.week_start,
    createdAt: team.created_at.toISOString(),
  };
}

export function presentMembership(m: Fields<MembershipDoc>, users: UserLookup) {
  const user = users(m.user_id);
  return {
    id: m.id,
    userId: m.user_id,
    teamId: m.team_id,
    accepted: m.accepted,
    role: m.role,
    user: user ? { email: user.email, name: user.name } : null,
  };
}

export function presentEventType(e: Fields<EventTypeDoc>, hosts: string[], users: UserLookup) {
  return {
    id: e.id,
    teamId: e.team_id,
    ownerId: e.owner_user_id,
    title: e.title,
    slug: e.slug,
    description: e.description,
    lengthInMinutes: e.length_in_minutes,
    schedulingType: e.scheduling_type,
    hosts: hosts.map((userId) => ({ userId, name: users(userId)?.name ?? null })),
    createdAt: e.created_at.toISOString(),
  };
}

export function presentSchedule(s: Fields<ScheduleDoc>) {
  return {
    id: s.id,
    ownerId: s.user_id,
    name: s.name,
    timeZone: s.time_zone,
    availability: s.availability.map((r) => ({ days: r.days, startTime: r.startTime, endTime: r.endTime })),
    isDefault: s.is_default,
    overrides: s.overrides.map((o) => ({ date: o.date, startTime: o.startTime, endTime: o.endTime })),
  };
}

export function presentBooking(b: Fields<BookingDoc>, users: UserLookup) {
  return {
    id: b.id,
    uid: b.uid,
    title: b.title,
    status: b.status,
    start: b.start.toISOString(),
    end: b.end.toISOString(),
    duration: Math.round((b.end.getTime() - b.start.getTime()) / 60_000),
    eventTypeId: b.event_type_id,
    teamId: b.team_id,
    hosts: b.host_user_ids.map((id) => {
      const user = users(id);
      return { id, name: user?.name ?? null, email: user?.email ?? null, timeZone: user?.timeZone ?? null };
    }),
    attendees: b.attendees.map((a) => ({ name: a.name, email: a.email, timeZone: a.timeZone })),
    cancellationReason: b.cancellation_reason,
    reschedulingReason: b.rescheduling_reason,
    rescheduledFromUid: b.rescheduled_from_uid,
    rescheduledToUid: b.rescheduled_to_uid,
    createdAt: b.created_at.toISOString(),
  };
}

/** Calendar references of a booking (video links, external calendar events): none are integrated yet. */
export function presentBookingReferences(_b: Fields<BookingDoc>) {
  return [] as Array<{ type: string; uid: string; meetingUrl: string | null }>;
}
