import type { FastifyRequest } from 'fastify';
import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';

declare module 'fastify' {
  interface FastifyRequest {
    caller: MemberRecord | undefined;
  }
}

export const SESSION_HEADER = 'platform-session-token';

/** How long a user record is reused across requests (a removed user keeps access at most this long, as a revoked key does through the key cache). */
const MEMBER_TTL_MS = 30_000;
const MEMBER_CACHE_MAX = 10_000;

/** Users by deployment and id, for a short time: every request needs its caller, and they rarely change. */
function memberCache(members: Members) {
  const cache = new Map<string, { user: MemberRecord; until: number }>();
  return async (environmentId: string, id: string): Promise<MemberRecord | null> => {
    const key = `${environmentId}:${id}`;
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.user;
    const user = await members.get(environmentId, id);
    if (cache.size >= MEMBER_CACHE_MAX) cache.delete(cache.keys().next().value!);
    if (user) cache.set(key, { user, until: Date.now() + MEMBER_TTL_MS });
    else cache.delete(key);
    return user;
  };
}

/**
 * `Platform-Session-Token: <key>`: a notifications API key that acts as a user of its deployment. A missing or
 * unknown token (or one whose user is gone) is 401.
 */
export function sessionAuth(accounts: Accounts, members: Members) {
  const memberOf = memberCache(members);
  return async (request: FastifyRequest) => {
    const raw = request.headers[SESSION_HEADER];
    const token = Array.isArray(raw) ? raw[0] : raw;
    if (!token)
      throw new UnauthenticatedError(
        'no_session',
        `Session token must be provided in the ${'Platform-Session-Token'} header.`,
      );
    const identity = await accounts.verifyKey('notifications', token.trim());
    if (!identity?.subject) throw new UnauthenticatedError('invalid_session', 'API key is invalid.');
    const user = await memberOf(identity.environmentId, identity.subject);
    if (!user) throw new UnauthenticatedError('invalid_session', 'API key is invalid.');
    request.caller = user;
  };
}
