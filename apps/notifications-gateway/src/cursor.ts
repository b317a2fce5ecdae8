import type { MemberRecord } from '@platform/accounts';
import { NotFoundError } from '@platform/errors';
import { NOT_YOUR_NOTIFICATION } from '@platform/notifications';
import type { GatewayDeps } from './deps.js';

/**
 * A cursor (`starting_before`, `Last-Event-ID`) is one of the caller's own notifications. Another user's answers
 * exactly as an unknown one, 404 naming the parameter, so nothing about it leaks (not even that it exists); 404
 * rather than 400, since the value is well formed: only what it names is missing.
 */
export async function requireOwnCursor(
  deps: GatewayDeps,
  caller: MemberRecord,
  field: 'starting_before' | 'last-event-id',
  id: string,
): Promise<void> {
  if (await deps.store.inbox.owns(caller.environment_id, caller._id, id)) return;
  throw new NotFoundError('notification_not_found', 'Notification not found.', {
    issues: [{ field, code: 'unknown_notification', message: NOT_YOUR_NOTIFICATION }],
  });
}
