import { createHash } from 'node:crypto';
import type { UserCreated, UserDeleted, UserUpdated } from '@platform/contracts';
import { presentUser, type UserObject } from './presenters.js';

/** The event id receivers see: stable for one Kafka event, so every retry carries the same id. */
export function webhookEventId(sourceEventId: string): string {
  return `event_${createHash('sha256').update(sourceEventId).digest('hex').slice(0, 26).toUpperCase()}`;
}

export type UserEventType = 'user.created' | 'user.updated' | 'user.deleted';

export interface UserEvent {
  id: string;
  event: UserEventType;
  data: UserObject;
  created_at: string;
}

/** The real service's event: `{ id, event, data, created_at }`, the same in a webhook body and the Events API. */
export function userEvent(
  eventId: string,
  type: UserEventType,
  event: UserCreated | UserUpdated | UserDeleted,
): UserEvent {
  const created = new Date(event.created_at);
  const updated = 'updated_at' in event ? new Date(event.updated_at) : created;
  const occurred = 'deleted_at' in event ? new Date(event.deleted_at) : updated;
  return {
    id: eventId,
    event: type,
    data: presentUser({
      _id: event.user_id,
      environment_id: event.environment_id,
      email: event.email,
      first_name: event.first_name,
      last_name: event.last_name,
      email_verified: event.email_verified,
      external_id: event.external_id,
      metadata: event.metadata,
      created_at: created,
      updated_at: occurred,
    }),
    created_at: occurred.toISOString(),
  };
}
