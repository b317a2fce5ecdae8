import type { FastifyRequest } from 'fastify';
import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';
import { recently } from './recent.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: MemberRecord | undefined;
  }
}

/** How long a user record is reused across requests (a removed user keeps access at most this long, as a revoked key does through the key cache). */
const MEMBER_TTL_MS = 30_000;
const MEMBER_CACHE_MAX = 10_000;

const forbidden = () => new UnauthenticatedError('FORBIDDEN', 'You are currently forbidden to access this resource.');

/**
 * `Authorization: Bearer <token>`, or the token alone (Bitly's most-used Node client sends it bare): a links
 * key that acts for one user of its organization. Missing or unknown: 403 FORBIDDEN, as Bitly answers.
 */
export function tokenAuth(accounts: Accounts, members: Members) {
  const recentMember = recently<MemberRecord>({ ttlMs: MEMBER_TTL_MS, max: MEMBER_CACHE_MAX });
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization?.trim();
    const token = header?.replace(/^Bearer\s+/i, '');
    if (!token || token.length > 400) throw forbidden();
    const identity = await accounts.verifyKey('links', token);
    if (!identity?.subject) throw forbidden();
    const { environmentId, subject } = identity;
    const user = await recentMember(`${environmentId}:${subject}`, () => members.get(environmentId, subject));
    if (!user) throw forbidden();
    request.caller = user;
  };
}
