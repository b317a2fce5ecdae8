import { NOT_BLANK, Type, ref, withHeaders, type Static, type TSchema } from '@platform/http';
import type {
  BookingView,
  EventTypeView,
  InviteLinkView,
  MembershipView,
  ScheduleView,
  TeamView,
  presentBookingReferences,
} from '@platform/scheduling';

/**
 * The /v2 scheduling API's request and response schemas, as /openapi.json shows them. Bodies are checked for
 * form here (types, lengths); what needs the data (a free slot, a unique slug, an accepted member) is the
 * worker's to say. Unknown body fields are ignored, as clients of the real service send more than we use.
 */

const ErrorBodyComponent = Type.Object(
  {
    status: Type.Literal('error'),
    error: Type.Object({
      code: Type.String({ description: 'Upper-case, stable: BAD_REQUEST, NOT_FOUND, TIME_TAKEN, …' }),
      message: Type.String(),
    }),
  },
  { $id: 'SchedulingError' },
);
/** The /v2 error body as routes name it: a reference to its component (registered by app.ts via `components`). */
export const ErrorBody = ref(ErrorBodyComponent);

/** 401 and 403 carry the bearer challenge (RFC 6750 3): the realm, and the error for a bad or narrow token. */
export const ChallengedError = withHeaders(ErrorBody, {
  'WWW-Authenticate': { description: 'Bearer realm="api", with error="invalid_token" or error="insufficient_scope".' },
});
/** A dependency that cannot serve the request now: try again after this many seconds. */
export const RetryError = withHeaders(ErrorBody, { 'Retry-After': { description: 'Seconds to wait.' } });

export const success = <T extends TSchema>(data: T) => Type.Object({ status: Type.Literal('success'), data });

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: NOT_BLANK, ...(description ? { description } : {}) });
const DateTime = Type.String({ format: 'date-time' });
const UserId = text(100);
const Slug = Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });
const TimeZone = text(64, 'An IANA time zone such as Europe/Berlin.');
const Role = Type.Union([Type.Literal('MEMBER'), Type.Literal('ADMIN'), Type.Literal('OWNER')]);
const SchedulingType = Type.Union([Type.Literal('COLLECTIVE'), Type.Literal('ROUND_ROBIN')]);
const Weekday = Type.Union([
  Type.Literal('Monday'),
  Type.Literal('Tuesday'),
  Type.Literal('Wednesday'),
  Type.Literal('Thursday'),
  Type.Literal('Friday'),
  Type.Literal('Saturday'),
  Type.Literal('Sunday'),
]);
const LengthInMinutes = Type.Integer({ minimum: 1, maximum: 1440 });
const body = (properties: Record<string, TSchema>) =>
  Type.Object(properties, { additionalProperties: true, maxProperties: 50 });

// Responses (the presenters in @platform/scheduling).

const TeamComponent = Type.Object(
  {
    id: Type.Integer(),
    parentId: nullable(Type.Integer()),
    name: Type.String(),
    slug: Type.String(),
    logoUrl: nullable(Type.String()),
    bio: nullable(Type.String()),
    isOrganization: Type.Boolean(),
    timeZone: Type.String(),
    weekStart: Type.String(),
    createdAt: DateTime,
  },
  { $id: 'Team' },
);
export const Team = ref(TeamComponent);

const MembershipComponent = Type.Object(
  {
    id: Type.Integer(),
    userId: Type.String(),
    teamId: Type.Integer(),
    accepted: Type.Boolean(),
    role: Role,
    user: nullable(Type.Object({ email: Type.String(), name: Type.String() })),
  },
  { $id: 'Membership' },
);
export const Membership = ref(MembershipComponent);

const EventTypeComponent = Type.Object(
  {
    id: Type.Integer(),
    teamId: nullable(Type.Integer()),
    ownerId: nullable(Type.String()),
    title: Type.String(),
    slug: Type.String(),
    description: nullable(Type.String()),
    lengthInMinutes: Type.Integer(),
    schedulingType: SchedulingType,
    hosts: Type.Array(Type.Object({ userId: Type.String(), name: nullable(Type.String()) })),
    createdAt: DateTime,
  },
  { $id: 'EventType' },
);
export const EventType = ref(EventTypeComponent);

const WeeklyRange = Type.Object({ days: Type.Array(Weekday), startTime: Type.String(), endTime: Type.String() });
const DateOverride = Type.Object({ date: Type.String(), startTime: Type.String(), endTime: Type.String() });

const ScheduleComponent = Type.Object(
  {
    id: Type.Integer(),
    ownerId: Type.String(),
    name: Type.String(),
    timeZone: Type.String(),
    availability: Type.Array(WeeklyRange),
    isDefault: Type.Boolean(),
    overrides: Type.Array(DateOverride),
  },
  { $id: 'Schedule' },
);
export const Schedule = ref(ScheduleComponent);

const BookingComponent = Type.Object(
  {
    id: Type.Integer(),
    uid: Type.String(),
    title: Type.String(),
    status: Type.Union([Type.Literal('accepted'), Type.Literal('cancelled')]),
    start: DateTime,
    end: DateTime,
    duration: Type.Integer({ description: 'Minutes.' }),
    eventTypeId: Type.Integer(),
    teamId: nullable(Type.Integer()),
    hosts: Type.Array(
      Type.Object({
        id: Type.String(),
        name: nullable(Type.String()),
        email: nullable(Type.String()),
        timeZone: nullable(Type.String()),
      }),
    ),
    attendees: Type.Array(Type.Object({ name: Type.String(), email: Type.String(), timeZone: Type.String() })),
    cancellationReason: nullable(Type.String()),
    reschedulingReason: nullable(Type.String()),
    rescheduledFromUid: nullable(Type.String()),
    rescheduledToUid: nullable(Type.String()),
    createdAt: DateTime,
  },
  { $id: 'Booking' },
);
export const Booking = ref(BookingComponent);

const BookingReferenceComponent = Type.Object(
  {
    type: Type.String(),
    uid: Type.String(),
    meetingUrl: nullable(Type.String()),
  },
  { $id: 'BookingReference' },
);
export const BookingReference = ref(BookingReferenceComponent);
export const InviteLink = Type.Object({ token: Type.String(), inviteLink: Type.String({ format: 'uri' }) });
export const PhoneCall = Type.Object({ callId: Type.String() });

/** The shapes the /v2 routes share: named components of /openapi.json. */
export const components = [
  ErrorBodyComponent,
  TeamComponent,
  MembershipComponent,
  EventTypeComponent,
  ScheduleComponent,
  BookingComponent,
  BookingReferenceComponent,
];

// Request bodies.

const teamFields = {
  slug: Type.Optional(Slug),
  logoUrl: Type.Optional(nullable(text(2048, 'An absolute http(s) URL.'))),
  bio: Type.Optional(nullable(text(2000))),
  timeZone: Type.Optional(TimeZone),
  weekStart: Type.Optional(Type.Union([Type.Literal('Monday'), Type.Literal('Sunday'), Type.Literal('Saturday')])),
};
export const CreateTeamBody = body({ name: text(200), ...teamFields });
export const UpdateTeamBody = body({ name: Type.Optional(text(200)), ...teamFields });

export const CreateMembershipBody = body({
  userId: UserId,
  role: Type.Optional(Role),
  accepted: Type.Optional(Type.Boolean()),
});
export const UpdateMembershipBody = body({ role: Type.Optional(Role), accepted: Type.Optional(Type.Boolean()) });

const Hosts = Type.Array(Type.Object({ userId: UserId }), {
  maxItems: 100,
  description: 'Team event types only: accepted members; empty means every member.',
});
const eventTypeFields = {
  slug: Type.Optional(Slug),
  description: Type.Optional(text(5000)),
  schedulingType: Type.Optional(SchedulingType),
  hosts: Type.Optional(Hosts),
};
export const CreateEventTypeBody = body({ title: text(200), lengthInMinutes: LengthInMinutes, ...eventTypeFields });
/** An update names some field to change (null is no change). */
const changesOneOf = (names: string[]) => ({
  anyOf: names.map((name) => ({ required: [name], properties: { [name]: { not: { type: 'null' } } } })),
  errorMessage: { anyOf: `must change at least one of ${names.join(', ')}` },
});
const eventTypeUpdate = {
  title: Type.Optional(text(200)),
  lengthInMinutes: Type.Optional(LengthInMinutes),
  ...eventTypeFields,
};
export const UpdateEventTypeBody = Type.Object(eventTypeUpdate, {
  additionalProperties: true,
  maxProperties: 50,
  ...changesOneOf(Object.keys(eventTypeUpdate)),
});
/** A personal event type is hosted by its owner: it takes no hosts. */
const noHosts = {
  not: { required: ['hosts'], properties: { hosts: { type: 'array' } } },
  errorMessage: { not: 'may not name hosts: a personal event type is hosted by its owner.' },
};
export const CreatePersonalEventTypeBody = Type.Object(CreateEventTypeBody.properties, {
  additionalProperties: true,
  maxProperties: 50,
  ...noHosts,
});
export const UpdatePersonalEventTypeBody = Type.Object(UpdateEventTypeBody.properties, {
  additionalProperties: true,
  maxProperties: 50,
  allOf: [noHosts, changesOneOf(Object.keys(eventTypeUpdate).filter((name) => name !== 'hosts'))],
});

const E164 = text(20, 'E.164, such as +4930123456.');
export const PhoneCallBody = body({
  yourPhoneNumber: E164,
  numberToCall: E164,
  templateType: Type.Optional(text(40)),
  ...Object.fromEntries(
    ['schedulerName', 'guestName', 'guestEmail', 'guestCompany', 'beginMessage', 'generalPrompt'].map((f) => [
      f,
      Type.Optional(text(5000)),
    ]),
  ),
});

// Availability is checked field by field by the domain (every bad range named in one answer), so its items
// are described here but their times and dates are left to it.
const availabilityFields = {
  timeZone: Type.Optional(TimeZone),
  availability: Type.Optional(
    Type.Array(Type.Object({ days: Type.Array(Type.String()), startTime: Type.String(), endTime: Type.String() }), {
      maxItems: 100,
    }),
  ),
  overrides: Type.Optional(
    Type.Array(Type.Object({ date: Type.String(), startTime: Type.String(), endTime: Type.String() }), {
      maxItems: 1000,
    }),
  ),
  isDefault: Type.Optional(Type.Boolean()),
};
export const CreateScheduleBody = body({ name: text(200), ...availabilityFields, timeZone: TimeZone });
export const UpdateScheduleBody = body({ name: Type.Optional(text(200)), ...availabilityFields });

export const CreateBookingBody = body({
  eventTypeId: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^[1-9][0-9]{0,14}$' })]),
  start: text(40, 'ISO 8601 with an offset, such as 2030-01-07T09:00:00Z.'),
  lengthInMinutes: Type.Optional(LengthInMinutes),
  attendee: Type.Object({ name: text(200), email: text(320), timeZone: TimeZone }, { additionalProperties: true }),
});
export const CancelBookingBody = body({ cancellationReason: Type.Optional(text(2000)) });
export const RescheduleBookingBody = body({
  start: text(40),
  reschedulingReason: Type.Optional(text(2000)),
});

export const AcceptInviteBody = body({ token: text(200) });

export const BookingsQuery = Type.Object({
  status: Type.Optional(Type.Union([Type.Literal('accepted'), Type.Literal('cancelled')])),
});

// The schemas are what clients are told and what responses are serialised with: they must be the presenters'
// shapes exactly (a field missing here would be dropped from answers; a wrong type would be coerced).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Views = [
  Same<Static<typeof Team>, TeamView>,
  Same<Static<typeof Membership>, MembershipView>,
  Same<Static<typeof EventType>, EventTypeView>,
  Same<Static<typeof Schedule>, ScheduleView>,
  Same<Static<typeof Booking>, BookingView>,
  Same<Static<typeof InviteLink>, InviteLinkView>,
  Same<Static<typeof BookingReference>, ReturnType<typeof presentBookingReferences>[number]>,
];
export const SCHEMAS_MATCH_VIEWS: Views = [true, true, true, true, true, true, true];
