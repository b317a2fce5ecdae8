import { InputError } from '@platform/errors';

/**
 * Event types a webhook endpoint may subscribe to (the real service's catalogue, dotted form). Only the
 * `user.*` events are emitted today; the rest are accepted so integrations can be configured ahead.
 */
export const WEBHOOK_EVENT_TYPES = [
  'user.created',
  'user.updated',
  'user.deleted',
  'authentication.email_verification_succeeded',
  'authentication.magic_auth_succeeded',
  'authentication.password_succeeded',
  'authentication.password_failed',
  'authentication.oauth_succeeded',
  'authentication.sso_succeeded',
  'dsync.activated',
  'dsync.deleted',
  'dsync.user.created',
  'dsync.user.updated',
  'dsync.user.deleted',
  'dsync.group.created',
  'dsync.group.updated',
  'dsync.group.deleted',
  'dsync.group.user_added',
  'dsync.group.user_removed',
  'email_verification.created',
  'invitation.created',
  'magic_auth.created',
  'organization.created',
  'organization.updated',
  'organization.deleted',
  'organization_membership.created',
  'organization_membership.updated',
  'organization_membership.deleted',
  'password_reset.created',
  'session.created',
  'session.revoked',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const known = new Set<string>(WEBHOOK_EVENT_TYPES);

export function validateEventTypes(events: string[]): string[] {
  if (events.length === 0) {
    throw new InputError('invalid_request_parameters', 'events must name at least one event type', {
      issues: [{ field: 'events', code: 'events_required', message: 'events must name at least one event type' }],
    });
  }
  const unknown = events.filter((e) => !known.has(e));
  if (unknown.length > 0) {
    const message = `Unknown event types: ${unknown.join(', ')}`;
    throw new InputError('invalid_request_parameters', message, {
      issues: [{ field: 'events', code: 'invalid_event_type', message }],
    });
  }
  return [...new Set(events)];
}

export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];
