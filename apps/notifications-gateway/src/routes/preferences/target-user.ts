import type { MemberRecord } from '@platform/accounts';
import { NotAllowedError, NotFoundError } from '@platform/errors';
import type { GatewayDeps } from '../../deps.js';

/**
 * `me`, a user id or a user name, in the caller's deployment; a member sees only their own, an owner anyone's.
 * A user that does not exist is 404 (Coder answers 400 with the same words; a well-formed name of nobody is not
 * a malformed request).
 */
export async function targetUser(deps: GatewayDeps, caller: MemberRecord, raw: string): Promise<MemberRecord> {
  const user = raw === 'me' ? caller : await deps.members.find(caller.environment_id, raw);
  if (!user) {
    throw new NotFoundError('unknown_user', '"user" must be an existing uuid or username.', {
      issues: [{ field: 'user', code: 'unknown_user', message: `queried user="${raw}"` }],
    });
  }
  if (user._id !== caller._id && caller.role !== 'owner') throw new NotAllowedError('forbidden', 'Forbidden.');
  return user;
}
