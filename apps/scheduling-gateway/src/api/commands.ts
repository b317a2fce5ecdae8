import {
  MessageTypeNames,
  type CreateEventType,
  type CreateSchedule,
  type CreateTeam,
  type UpdateEventType,
  type UpdateSchedule,
  type UpdateTeam,
} from '@platform/contracts';

/**
 * Request bodies (already checked against the route's schema) read into the fields of their command records:
 * a field the client left out is null in the record; a team's logoUrl or bio sent as null is named in
 * `cleared`.
 */
type Body = Record<string, unknown>;

const str = (body: Body, key: string): string | null => (typeof body[key] === 'string' ? (body[key] as string) : null);
const int = (body: Body, key: string): number | null => (typeof body[key] === 'number' ? (body[key] as number) : null);
const bool = (body: Body, key: string): boolean | null =>
  typeof body[key] === 'boolean' ? (body[key] as boolean) : null;
const asBody = (body: unknown): Body => (typeof body === 'object' && body !== null ? (body as Body) : {});

export function teamFields(
  raw: unknown,
): Omit<CreateTeam, 'actor_user_id' | 'org_id' | 'requested_at' | 'name'> & { name: string | null } {
  const body = asBody(raw);
  return {
    name: str(body, 'name'),
    slug: str(body, 'slug'),
    logo_url: str(body, 'logoUrl'),
    bio: str(body, 'bio'),
    time_zone: str(body, 'timeZone'),
    week_start: str(body, 'weekStart'),
  };
}

export function clearedTeamFields(raw: unknown): UpdateTeam['cleared'] {
  const body = asBody(raw);
  return (['logoUrl', 'bio'] as const)
    .filter((key) => body[key] === null)
    .map((key) => (key === 'logoUrl' ? 'logo_url' : 'bio'));
}

type EventTypeFields = Pick<
  UpdateEventType,
  'title' | 'slug' | 'description' | 'length_in_minutes' | 'scheduling_type' | 'host_user_ids'
>;

export function eventTypeFields(raw: unknown): EventTypeFields {
  const body = asBody(raw);
  const hosts = Array.isArray(body['hosts']) ? (body['hosts'] as Array<{ userId: string }>).map((h) => h.userId) : null;
  const type = str(body, 'schedulingType');
  return {
    title: str(body, 'title'),
    slug: str(body, 'slug'),
    description: str(body, 'description'),
    length_in_minutes: int(body, 'lengthInMinutes'),
    scheduling_type: type === 'COLLECTIVE' || type === 'ROUND_ROBIN' ? type : null,
    host_user_ids: hosts,
  };
}

/** A creation's required fields, present once the body passed its schema. */
export function createEventTypeFields(
  raw: unknown,
): Omit<CreateEventType, 'actor_user_id' | 'org_id' | 'team_id' | 'requested_at'> {
  const fields = eventTypeFields(raw);
  return { ...fields, title: fields.title ?? '', length_in_minutes: fields.length_in_minutes ?? 0 };
}

const PHONE_DETAILS = ['schedulerName', 'guestName', 'guestEmail', 'guestCompany', 'beginMessage', 'generalPrompt'];

export function phoneCallFields(raw: unknown) {
  const body = asBody(raw);
  return {
    your_phone_number: str(body, 'yourPhoneNumber') ?? '',
    number_to_call: str(body, 'numberToCall') ?? '',
    template_type: str(body, 'templateType'),
    details: Object.fromEntries(
      PHONE_DETAILS.filter((key) => typeof body[key] === 'string').map((key) => [key, body[key] as string]),
    ),
  };
}

type Ranges = NonNullable<UpdateSchedule['availability']>;
type Overrides = NonNullable<UpdateSchedule['overrides']>;

export function scheduleFields(
  raw: unknown,
): Pick<UpdateSchedule, 'name' | 'time_zone' | 'availability' | 'overrides' | 'is_default'> {
  const body = asBody(raw);
  const list = <T>(key: string, map: (item: Record<string, unknown>) => T): T[] | null =>
    Array.isArray(body[key]) ? (body[key] as Array<Record<string, unknown>>).map(map) : null;
  return {
    name: str(body, 'name'),
    time_zone: str(body, 'timeZone'),
    availability: list<Ranges[number]>('availability', (r) => ({
      days: r['days'] as string[],
      start_time: String(r['startTime']),
      end_time: String(r['endTime']),
    })),
    overrides: list<Overrides[number]>('overrides', (o) => ({
      date: String(o['date']),
      start_time: String(o['startTime']),
      end_time: String(o['endTime']),
    })),
    is_default: bool(body, 'isDefault'),
  };
}

export function createScheduleFields(
  raw: unknown,
): Omit<CreateSchedule, 'actor_user_id' | 'org_id' | 'user_id' | 'requested_at'> {
  const fields = scheduleFields(raw);
  return { ...fields, name: fields.name ?? '' };
}

export { MessageTypeNames };
