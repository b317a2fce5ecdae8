import csrfProtection from '@fastify/csrf-protection';
import { NotAllowedError } from '@platform/errors';
import type { FastifyRequest, HttpApp } from '@platform/http';
import { fieldsOf } from './form.js';

export const CSRF_FIELD = '_csrf';
export const CSRF_FAILURE_MESSAGE = 'Invalid or missing CSRF token.';
/** The login form's double-submit cookie (the secret its token is made from), before any session exists. */
export const LOGIN_CSRF_COOKIE = 'csrf';

/** The errors @fastify/csrf-protection answers with (403): no secret (no session, no cookie), or a wrong token. */
const PLUGIN_ERRORS = new Set(['FST_CSRF_MISSING_SECRET', 'FST_CSRF_INVALID_TOKEN']);

/** A refused form post as the app's own 403 page, whichever check refused it. */
export function csrfFailure(error: unknown): NotAllowedError | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && PLUGIN_ERRORS.has(code)
    ? new NotAllowedError('csrf_failed', CSRF_FAILURE_MESSAGE)
    : null;
}

/** The token a form carried: its `_csrf` field and nothing else (the pages have no script to send a header). */
function formToken(request: FastifyRequest): string | undefined {
  const token = fieldsOf(request.body)[CSRF_FIELD];
  return typeof token === 'string' ? token : undefined;
}

/**
 * Defence in depth on top of the token: a POST whose Origin names another site is refused. `Origin: null` is
 * what browsers send on every POST from a page with `Referrer-Policy: no-referrer` (Fetch standard), so it
 * carries no information and is left to the token check.
 */
function originAllowed(origin: string | undefined, publicOrigin: string): boolean {
  return origin === undefined || origin === 'null' || origin === publicOrigin;
}

interface GuardOptions {
  publicOrigin: string;
  /** Posts that need no token (they can change nothing). */
  exempt?: (request: FastifyRequest) => boolean;
}

/** preHandler of every POST in the scope: the Origin must be ours (when the browser says), then the plugin's check. */
function guardPosts(scope: HttpApp, { publicOrigin, exempt }: GuardOptions) {
  scope.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST' || exempt?.(request)) return done();
    const origin = request.headers.origin;
    if (originAllowed(origin, publicOrigin)) return scope.csrfProtection(request, reply, done);
    request.log.warn({ route: request.routeOptions.url, origin }, 'form post refused: another origin');
    done(new NotAllowedError('csrf_failed', CSRF_FAILURE_MESSAGE));
  });
}

/**
 * The login form, before any session exists: a signed double-submit cookie holds the secret (SameSite=Strict),
 * so no state is kept for visitors who have not logged in; every tab's token is good while the cookie lasts.
 */
export async function protectLoginForm(scope: HttpApp, options: GuardOptions & { secure: boolean }) {
  await scope.register(csrfProtection, {
    cookieKey: LOGIN_CSRF_COOKIE,
    cookieOpts: { path: '/', httpOnly: true, sameSite: 'strict', secure: options.secure, signed: true },
    getToken: formToken,
  });
  guardPosts(scope, options);
}

/**
 * Every other form: the secret lives in the session (@fastify/session), so a token is good for its own session
 * only and ends with it (logout, a new login).
 */
export async function protectSessionForms(scope: HttpApp, options: GuardOptions) {
  await scope.register(csrfProtection, { sessionPlugin: '@fastify/session', getToken: formToken });
  guardPosts(scope, options);
}
