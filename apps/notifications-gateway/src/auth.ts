import type { FastifyRequest } from 'fastify';
import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';

declare module 'fastify' {
  interface FastifyRequest {
    caller: MemberRecord | undefined;
  }
}

export const SESSION_HEADER = 'platform-session-token';

/**
 * `Platform-Session-Token: <key>`: a notifications API key that acts as a user of its deployment. A missing or
 * unknown token (or one whose user is gone) is 401.
 */
export function sessionAuth(accounts: Accounts, members: Members) {
  return async (request: FastifyRequest) => {
    const raw = request.headers[SESSION_HEADER];
    const token = Array.isArray(raw) ? raw[0] : raw;
    if (!token) throw new UnauthenticatedError('no_session', `Session token must be provided in the ${'Platform-Session-Token'} header.`);
    const identity = await accounts.verifyKey('notifications', token.trim());
    if (!identity?.subject) throw new UnauthenticatedError('invalid_session', 'API key is invalid.');
    const user = await members.get(identity.environmentId, identity.subject);
    if (!user) throw new UnauthenticatedError('invalid_session', 'API key is invalid.');
    request.caller = user;
  };
}
