import { InputError } from '@platform/errors';

/** An endpoint's own rate limit, in deliveries per second (an extension beyond WorkOS's API). */
export const WEBHOOK_RATE_LIMIT = { min: 1, max: 10_000 } as const;

const RATE_LIMIT_MESSAGE = `rate_limit must be an integer from ${WEBHOOK_RATE_LIMIT.min} to ${WEBHOOK_RATE_LIMIT.max}, or null`;

/** The gateway's schema checks this first; a command from elsewhere on the topic is held to the same bounds. */
export function validateRateLimit(value: number | null): number | null {
  if (value === null) return null;
  if (!Number.isInteger(value) || value < WEBHOOK_RATE_LIMIT.min || value > WEBHOOK_RATE_LIMIT.max) {
    throw new InputError('invalid_request_parameters', RATE_LIMIT_MESSAGE, {
      issues: [{ field: 'rate_limit', code: 'invalid_rate_limit', message: RATE_LIMIT_MESSAGE }],
    });
  }
  return value;
}

type EventData = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/**
 * The aggregate an event is about, for an ordered endpoint: deliveries sharing it arrive in the order the events
 * happened. Chosen so that the events a receiver applies to one record of its own are never reordered:
 * - `user.*`, `organization.*`, `invitation.*`: the object itself (`data.id`);
 * - `organization_membership.*`, `session.*`, `authentication.*`, `email_verification.*`, `magic_auth.*`,
 *   `password_reset.*`: the user they concern (`data.user_id`), so they keep their place among that user's
 *   `user.*` events (a membership is never announced before its user exists);
 * - `dsync.*`: the directory (`data.directory_id`, or `data.id` for `dsync.activated` and `dsync.deleted`), since
 *   group membership events tie a directory's users and groups together.
 * An event with no such id (a failed sign-in by an unknown e-mail) has no key and is not held back.
 */
export function orderingKeyOf(eventType: string, data: EventData): string | null {
  const family = eventType.slice(0, eventType.indexOf('.'));
  switch (family) {
    case 'user':
    case 'organization':
    case 'invitation':
      return text(data['id']);
    case 'organization_membership':
    case 'session':
    case 'authentication':
    case 'email_verification':
    case 'magic_auth':
    case 'password_reset':
      return text(data['user_id']);
    case 'dsync':
      return eventType === 'dsync.activated' || eventType === 'dsync.deleted'
        ? text(data['id'])
        : text(data['directory_id']);
    default:
      return null;
  }
}
