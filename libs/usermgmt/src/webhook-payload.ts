import { createHash } from 'node:crypto';
import type { UserCreated } from '@platform/contracts';
import { presentUser } from './presenters.js';

/** The event id webhook receivers see: stable for one Kafka event, so every retry carries the same id. */
export function webhookEventId(sourceEventId: string): string {
  return `event_${createHash('sha256').update(sourceEventId).digest('hex').slice(0, 26).toUpperCase()}`;
}

/** The real service's webhook body: `{ id, event, data, created_at }`. */
export function userCreatedPayload(eventId: string, event: UserCreated) {
  const created = new Date(event.created_at);
  return {
    id: eventId,
    event: 'user.created',
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
      updated_at: created,
    }),
    created_at: created.toISOString(),
  };
}
