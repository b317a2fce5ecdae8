import {
  Schema,
  aggregateWriter,
  defineModel,
  isDuplicateKeyError,
  outboxSchemaFields,
  type Connection,
  type OutboxCollection,
  type StoredOutboxEntry,
} from '@platform/mongo';
import type { DateOverride, WeeklyRange } from './availability/index.js';

/**
 * The scheduling model, owned by apps/scheduling-worker. Ids are the numbers the real API uses; each
 * document's `_id` is that number as a string (a primary-key lookup on FerretDB and MongoDB alike, and
 * the form the outbox relay reads documents back by). Deletions are marks, so the outbox survives them.
 */
interface Aggregate {
  _id: string;
  id: number;
  /** The command that created the document: a command redone after a crash finds it instead of creating another. */
  command_id: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  outbox: StoredOutboxEntry[];
  has_outbox: boolean;
}

export type Role = 'MEMBER' | 'ADMIN' | 'OWNER';
export const ROLES: readonly Role[] = ['MEMBER', 'ADMIN', 'OWNER'];

export interface TeamDoc extends Aggregate {
  /** The organization a team belongs to; null for standalone teams and for organizations themselves. */
  parent_id: number | null;
  is_organization: boolean;
  name: string;
  slug: string;
  logo_url: string | null;
  bio: string | null;
  time_zone: string;
  week_start: string;
}

export interface MembershipDoc extends Aggregate {
  team_id: number;
  user_id: string;
  role: Role;
  accepted: boolean;
}

export interface InviteDoc {
  _id: string;
  team_id: number;
  created_by: string;
  created_at: Date;
  expires_at: Date;
}

export type SchedulingType = 'COLLECTIVE' | 'ROUND_ROBIN';

export interface EventTypeDoc extends Aggregate {
  /** The owning team; null for an event type of one user. */
  team_id: number | null;
  /** The owning user of a personal event type (its only host); null for team event types. */
  owner_user_id: string | null;
  title: string;
  slug: string;
  description: string | null;
  length_in_minutes: number;
  /** Members who host it; empty means every accepted member. */
  host_user_ids: string[];
  scheduling_type: SchedulingType;
}

export interface ScheduleDoc extends Aggregate {
  user_id: string;
  name: string;
  time_zone: string;
  availability: WeeklyRange[];
  overrides: DateOverride[];
  is_default: boolean;
}

export interface Attendee {
  name: string;
  email: string;
  timeZone: string;
}

export interface BookingDoc extends Aggregate {
  uid: string;
  event_type_id: number;
  team_id: number | null;
  title: string;
  host_user_ids: string[];
  start: Date;
  end: Date;
  status: 'accepted' | 'cancelled';
  attendees: Attendee[];
  cancellation_reason: string | null;
  rescheduling_reason: string | null;
  rescheduled_from_uid: string | null;
  rescheduled_to_uid: string | null;
  /** The command that cancelled it: a redone cancel answers as the first one did. */
  cancelled_by?: string | null;
}

/**
 * One document per host holding the times of their accepted bookings: a booking is taken by a
 * compare-and-set on it (`version`), so two concurrent bookings of one host can never both succeed.
 */
export interface HostCalendarDoc {
  _id: string;
  version: number;
  busy: Array<{ uid: string; start: Date; end: Date }>;
}

const options = { versionKey: false as const, _id: false };
const aggregateFields = {
  _id: String,
  id: { type: Number, required: true, unique: true },
  command_id: { type: String, required: true, unique: true },
  created_at: Date,
  updated_at: Date,
  deleted_at: { type: Date, default: null },
  ...outboxSchemaFields,
};

/** The scheduling collections (private to this lib: readers use the store, the worker the writer). */
function schedulingModels(connection: Connection) {
  const Counter = defineModel(
    connection,
    'SchedulingCounter',
    new Schema<{ _id: string; seq: number }>(
      { _id: String, seq: Number },
      { ...options, collection: 'sched_counters' },
    ),
  );
  const Team = defineModel(
    connection,
    'SchedulingTeam',
    new Schema<TeamDoc>(
      {
        ...aggregateFields,
        parent_id: { type: Number, default: null, index: true },
        is_organization: { type: Boolean, default: false },
        name: String,
        slug: String,
        logo_url: { type: String, default: null },
        bio: { type: String, default: null },
        time_zone: String,
        week_start: String,
      },
      { ...options, collection: 'sched_teams' },
    ).index({ slug: 1, is_organization: 1 }),
  );
  const Membership = defineModel(
    connection,
    'SchedulingMembership',
    new Schema<MembershipDoc>(
      {
        ...aggregateFields,
        team_id: { type: Number, index: true },
        user_id: { type: String, index: true },
        role: String,
        accepted: Boolean,
      },
      { ...options, collection: 'sched_memberships' },
    ),
  );
  const Invite = defineModel(
    connection,
    'SchedulingInvite',
    new Schema<InviteDoc>(
      { _id: String, team_id: Number, created_by: String, created_at: Date, expires_at: Date },
      { ...options, collection: 'sched_invites' },
    ),
  );
  const EventType = defineModel(
    connection,
    'SchedulingEventType',
    new Schema<EventTypeDoc>(
      {
        ...aggregateFields,
        team_id: { type: Number, default: null, index: true },
        owner_user_id: { type: String, default: null, index: true },
        title: String,
        slug: String,
        description: { type: String, default: null },
        length_in_minutes: Number,
        host_user_ids: { type: [String], default: [] },
        scheduling_type: String,
      },
      { ...options, collection: 'sched_event_types' },
    ),
  );
  const range = { _id: false, days: [String], startTime: String, endTime: String };
  const Schedule = defineModel(
    connection,
    'SchedulingSchedule',
    new Schema<ScheduleDoc>(
      {
        ...aggregateFields,
        user_id: { type: String, index: true },
        name: String,
        time_zone: String,
        availability: { type: [range], default: [] },
        overrides: { type: [{ _id: false, date: String, startTime: String, endTime: String }], default: [] },
        is_default: Boolean,
      },
      { ...options, collection: 'sched_schedules' },
    ),
  );
  const Booking = defineModel(
    connection,
    'SchedulingBooking',
    new Schema<BookingDoc>(
      {
        ...aggregateFields,
        uid: { type: String, required: true, unique: true },
        event_type_id: { type: Number, index: true },
        team_id: { type: Number, default: null, index: true },
        title: String,
        host_user_ids: { type: [String], default: [] },
        start: Date,
        end: Date,
        status: String,
        attendees: { type: [{ _id: false, name: String, email: String, timeZone: String }], default: [] },
        cancellation_reason: { type: String, default: null },
        rescheduling_reason: { type: String, default: null },
        rescheduled_from_uid: { type: String, default: null },
        rescheduled_to_uid: { type: String, default: null },
        cancelled_by: { type: String, default: null },
      },
      { ...options, collection: 'sched_bookings' },
    ),
  );
  const HostCalendar = defineModel(
    connection,
    'SchedulingHostCalendar',
    new Schema<HostCalendarDoc>(
      {
        _id: String,
        version: Number,
        busy: { type: [{ _id: false, uid: String, start: Date, end: Date }], default: [] },
      },
      { ...options, collection: 'sched_host_calendars' },
    ),
  );

  return { Counter, Team, Membership, Invite, EventType, Schedule, Booking, HostCalendar };
}

/** The scheduling read model: what gateways, the web app, the CLI and the worker read. */
export function createSchedulingStore(connection: Connection) {
  const { Counter, Team, Membership, Invite, EventType, Schedule, Booking, HostCalendar } =
    schedulingModels(connection);
  const live = { deleted_at: null };
  const lean = <T>(query: { lean: <R>() => Promise<R> }) => query.lean<T>();
  /** A bare primary-key lookup (FerretDB pushes only those down), deleted documents filtered here. */
  async function byId<T extends { deleted_at: Date | null }>(
    model: { findById: (id: string) => { lean: <R>() => Promise<R> } },
    id: number,
  ): Promise<T | null> {
    if (!Number.isSafeInteger(id) || id <= 0) return null;
    const doc = await model.findById(String(id)).lean<T | null>();
    return doc && !doc.deleted_at ? doc : null;
  }

  return {
    team: (id: number) => byId<TeamDoc>(Team, id),
    teamByCommand: (commandId: string) => lean<TeamDoc | null>(Team.findOne({ command_id: commandId })),
    teamsByIds: (ids: number[]) => lean<TeamDoc[]>(Team.find({ id: { $in: ids }, ...live }).sort({ id: 1 })),
    organizationIds: async (ids: number[]) =>
      (
        await Team.find({ id: { $in: ids }, is_organization: true, deleted_at: null }, { id: 1 }).lean<
          Array<{ id: number }>
        >()
      ).map((t) => t.id),
    teamsOfOrganization: (orgId: number) => lean<TeamDoc[]>(Team.find({ parent_id: orgId, ...live }).sort({ id: 1 })),
    organizations: () => lean<TeamDoc[]>(Team.find({ is_organization: true, ...live }).sort({ id: 1 })),
    /** Whether a live standalone team (or, with `organization`, an organization) has the slug. */
    async slugTaken(slug: string, options: { organization: boolean; except?: number }): Promise<boolean> {
      const filter = {
        parent_id: null,
        slug,
        is_organization: options.organization,
        ...live,
        ...(options.except ? { id: { $ne: options.except } } : {}),
      };
      return (await Team.exists(filter)) !== null;
    },

    membership: (id: number) => byId<MembershipDoc>(Membership, id),
    membershipByCommand: (commandId: string) =>
      lean<MembershipDoc | null>(Membership.findOne({ command_id: commandId })),
    membershipOf: (teamId: number, userId: string) =>
      lean<MembershipDoc | null>(Membership.findOne({ team_id: teamId, user_id: userId, ...live })),
    membershipsOfTeam: (teamId: number) =>
      lean<MembershipDoc[]>(Membership.find({ team_id: teamId, ...live }).sort({ id: 1 })),
    membershipsOfUser: (userId: string) =>
      lean<MembershipDoc[]>(Membership.find({ user_id: userId, ...live }).sort({ id: 1 })),

    invite: (tokenHash: string) => lean<InviteDoc | null>(Invite.findOne({ _id: tokenHash })),

    eventType: (id: number) => byId<EventTypeDoc>(EventType, id),
    eventTypeByCommand: (commandId: string) => lean<EventTypeDoc | null>(EventType.findOne({ command_id: commandId })),
    eventTypesOfTeams: (teamIds: number[]) =>
      lean<EventTypeDoc[]>(EventType.find({ team_id: { $in: teamIds }, ...live }).sort({ id: 1 })),

    schedule: (id: number) => byId<ScheduleDoc>(Schedule, id),
    scheduleByCommand: (commandId: string) => lean<ScheduleDoc | null>(Schedule.findOne({ command_id: commandId })),
    schedulesOfUsers: (userIds: string[]) =>
      lean<ScheduleDoc[]>(Schedule.find({ user_id: { $in: userIds }, ...live }).sort({ id: 1 })),

    booking: (uid: string) => lean<BookingDoc | null>(Booking.findOne({ uid })),
    bookingByCommand: (commandId: string) => lean<BookingDoc | null>(Booking.findOne({ command_id: commandId })),
    eventTypesOfUser: (userId: string) =>
      lean<EventTypeDoc[]>(EventType.find({ owner_user_id: userId, ...live }).sort({ id: 1 })),
    bookingsOfHost: (userId: string) => lean<BookingDoc[]>(Booking.find({ host_user_ids: userId }).sort({ start: 1 })),
    bookingsOfTeams: (teamIds: number[]) =>
      lean<BookingDoc[]>(Booking.find({ team_id: { $in: teamIds } }).sort({ start: 1 })),

    hostCalendar: (userId: string) => lean<HostCalendarDoc | null>(HostCalendar.findOne({ _id: userId })),

    outboxCollections(): OutboxCollection[] {
      return [Team, Membership, EventType, Schedule, Booking].map((m) => m.collection as unknown as OutboxCollection);
    },

    async ensureIndexes() {
      await Promise.all(
        [Team, Membership, Invite, EventType, Schedule, Booking, HostCalendar, Counter].map((m) => m.init()),
      );
    },
  };
}

export type SchedulingStore = ReturnType<typeof createSchedulingStore>;

/**
 * The scheduling writes, each with the events that report it: owned by the scheduling worker (a lint rule
 * keeps other apps to the store and to commands).
 */
export function createSchedulingWriter(connection: Connection) {
  const { Counter, Team, Membership, Invite, EventType, Schedule, Booking, HostCalendar } =
    schedulingModels(connection);
  return {
    /** The next number of a sequence (teams and organizations share one, as in the real service). */
    async nextId(sequence: 'team' | 'membership' | 'event_type' | 'schedule' | 'booking'): Promise<number> {
      const doc = await Counter.findOneAndUpdate(
        { _id: sequence },
        { $inc: { seq: 1 } },
        { upsert: true, new: true },
      ).lean<{ seq: number }>();
      return doc!.seq;
    },
    teams: aggregateWriter<TeamDoc>(Team),
    memberships: aggregateWriter<MembershipDoc>(Membership),
    eventTypes: aggregateWriter<EventTypeDoc>(EventType),
    schedules: aggregateWriter<ScheduleDoc>(Schedule),
    bookings: aggregateWriter<BookingDoc>(Booking),
    /** Only the token's hash is stored: the link is the secret. */
    async insertInvite(invite: InviteDoc): Promise<void> {
      await Invite.create(invite);
    },
    hostCalendars: {
      /** Creates an empty calendar; false when it exists already. */
      async create(hostId: string): Promise<boolean> {
        try {
          await HostCalendar.create({ _id: hostId, version: 0, busy: [] });
          return true;
        } catch (error) {
          if (isDuplicateKeyError(error)) return false;
          throw error;
        }
      },
      /** A compare-and-set on the calendar's version: false when another change came first. */
      async replaceBusy(hostId: string, version: number, busy: HostCalendarDoc['busy']): Promise<boolean> {
        const result = await HostCalendar.updateOne({ _id: hostId, version }, { $set: { version: version + 1, busy } });
        return result.modifiedCount === 1;
      },
    },
  };
}

export type SchedulingWriter = ReturnType<typeof createSchedulingWriter>;
