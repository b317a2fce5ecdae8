import type { FastifyRequest } from 'fastify';
import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';

declare module 'fastify' {
  interface FastifyRequest {
    caller: MemberRecord | undefined;
  }
}

const forbidden = () => new UnauthenticatedError('FORBIDDEN', 'You are currently forbidden to access this resource.');

/**
 * `Authorization: Bearer <token>`, or the token alone (Bitly's most-used Node client sends it bare): a links
 * key that acts for one user of its organization. Missing or unknown: 403 FORBIDDEN, as Bitly answers.
 */
export function tokenAuth(accounts: Accounts, members: Members) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization?.trim();
    const token = header?.replace(/^Bearer\s+/i, '');
    if (!token || token.length > 400) throw forbidden();
    const identity = await accounts.verifyKey('links', token);
    if (!identity?.subject) throw forbidden();
    const user = await members.get(identity.environmentId, identity.subject);
    if (!user) throw forbidden();
    request.caller = user;
  };
}
