import { MessageTypeNames } from '@platform/contracts';
import { outboxEvent } from '@platform/mongo';
import type { HandlerDeps } from './deps.js';

/**
 * Revokes a grant and, through the revocation list, every access token of it; its refresh tokens die with
 * it (the refresh handler refuses tokens of revoked grants). Idempotent: the event is written once, with
 * the change; the revocation list is told every time (it may have missed an earlier, interrupted run).
 */
export async function revokeGrant(deps: HandlerDeps, grantId: string, reason: string): Promise<void> {
  const grant = await deps.store.getGrant(grantId);
  if (!grant) return;
  if (!grant.revoked_at) {
    const now = new Date();
    await deps.writer.grants.change({ _id: grantId, revoked_at: null }, { revoked_at: now, revoke_reason: reason }, [
      outboxEvent(MessageTypeNames.GrantRevoked, grant.client_id, {
        client_id: grant.client_id,
        user_id: grant.user_id,
        grant_id: grantId,
        reason,
        occurred_at: now.getTime(),
      }),
    ]);
  }
  await deps.revocations.revoke(grantId);
}
