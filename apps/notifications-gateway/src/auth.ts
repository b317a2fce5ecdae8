import type { FastifyRequest } from 'fastify';
import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';

declare module 'fastify' {
  interface FastifyRequest {
    caller: MemberRecord | undefined;
  }
  interface FastifyContextConfig {
    /**
     * The route may also be called by a browser, which can set no header on an `EventSource` or a `WebSocket`:
     * the token is also read from the `platform_session_token` cookie and query parameter.
     */
    browserSession?: boolean;
  }
}

export const SESSION_HEADER = 'platform-session-token';
/** Coder's `coder_session_token`, renamed as the header is: the cookie and the query parameter. */
export const SESSION_PARAMETER = 'platform_session_token';

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

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** One cookie's value from a `Cookie` header (RFC 6265 §5.4: `name=value` pairs separated by `;`). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const raw = pair.slice(at + 1).trim();
    const unquoted = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw;
    try {
      return decodeURIComponent(unquoted);
    } catch {
      return unquoted;
    }
  }
  return undefined;
}

/**
 * The token a request presents: the header; on a browser route also the query parameter (what the page chose
 * for this request) and then the cookie.
 */
function presentedToken(request: FastifyRequest): string | undefined {
  const header = first(request.headers[SESSION_HEADER]);
  if (header) return header;
  if (request.routeOptions.config.browserSession !== true) return undefined;
  const query = first(
    (request.query as Record<string, string | string[] | undefined> | undefined)?.[SESSION_PARAMETER],
  );
  if (query) return query;
  return cookieValue(first(request.headers.cookie), SESSION_PARAMETER) || undefined;
}

/**
 * `Platform-Session-Token: <key>` (on the watch stream also the `platform_session_token` cookie or query
 * parameter): a notifications API key that acts as a user of its deployment. A missing or unknown token (or
 * one whose user is gone) is 401.
 */
export function sessionAuth(accounts: Accounts, members: Members) {
  const memberOf = memberCache(members);
  return async (request: FastifyRequest) => {
    const token = presentedToken(request);
    if (!token)
      throw new UnauthenticatedError(
        'no_session',
        request.routeOptions.config.browserSession === true
          ? `Session token must be provided in the Platform-Session-Token header, or the ${SESSION_PARAMETER} cookie or query parameter.`
          : 'Session token must be provided in the Platform-Session-Token header.',
      );
    const identity = await accounts.verifyKey('notifications', token.trim());
    if (!identity?.subject) throw new UnauthenticatedError('invalid_session', 'API key is invalid.');
    const user = await memberOf(identity.environmentId, identity.subject);
    if (!user) throw new UnauthenticatedError('invalid_session', 'API key is invalid.');
    request.caller = user;
  };
}
