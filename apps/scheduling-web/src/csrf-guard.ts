import type { FastifyReply, FastifyRequest } from '@platform/http';
import { CSRF_FAILURE_MESSAGE, type Auth } from './auth.js';
import { CSRF_FIELD, csrfTokenMatches, originAllowed } from './csrf.js';
import { fieldsOf } from './form.js';

/**
 * preHandler of every POST: the Origin must be ours (when the browser says), and the form must carry the
 * session's token, or for the login form (no session yet) the token of the signed `csrf` cookie.
 */
export function csrfGuard(auth: Auth, publicOrigin: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const route = request.routeOptions.url;
    const viewer = auth.viewer(request);
    // Logging out without a session changes nothing (the handler only clears cookies).
    if (route === '/logout' && !viewer) return;
    const expected = route === '/login' ? auth.loginCsrf(request) : (viewer?.csrf ?? null);
    const origin = request.headers.origin;
    if (originAllowed(origin, publicOrigin) && csrfTokenMatches(expected, fieldsOf(request.body)[CSRF_FIELD])) return;
    request.log.warn({ route, origin, has_session: viewer !== null }, 'form post refused: bad origin or CSRF token');
    return auth.forbidden(request, reply, CSRF_FAILURE_MESSAGE);
  };
}
