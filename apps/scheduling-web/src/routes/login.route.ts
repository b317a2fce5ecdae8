import type { HttpApp } from '@platform/http';
import { fieldsOf, textField } from '../form.js';
import { formActionSource } from '../page-headers.js';
import { loginPage } from '../pages/login.page.js';
import { sendPage, seeOther } from '../respond.js';
import { DEFAULT_LANDING, isSafeReturnTo, safeReturnTo } from '../return-to.js';
import type { WebContext } from '../web-context.js';

const LOGIN_FAILED = 'Incorrect e-mail or password.';
const AUTHORIZE_PATH = '/auth/oauth2/authorize';

/**
 * The login pages, in the scope whose form token is the login cookie's (`reply.generateCsrf`): no session is
 * needed to log in, and none is kept for a visitor who has not.
 */
export function loginRoutes(app: HttpApp, { deps, auth }: WebContext) {
  /**
   * Logging in on the way to the consent page can end in a redirect to the client (an authorization error),
   * and browsers apply form-action to that redirect too.
   */
  function formActionFor(returnTo: string): string[] | null {
    const url = new URL(returnTo || DEFAULT_LANDING, deps.publicUrl);
    if (url.pathname !== AUTHORIZE_PATH) return [];
    const redirectUri = url.searchParams.get('redirect_uri');
    if (!redirectUri) return [];
    const source = formActionSource(redirectUri);
    return source ? [source] : null;
  }

  app.get('/', async (_request, reply) => seeOther(reply, DEFAULT_LANDING));

  app.get('/login', async (request, reply) => {
    const wanted = textField(fieldsOf(request.query), 'return_to', 4096);
    const returnTo = isSafeReturnTo(wanted) ? wanted : '';
    const page = loginPage({ csrf: reply.generateCsrf(), returnTo, email: '', error: null });
    return sendPage(reply, 200, page, formActionFor(returnTo));
  });

  app.post('/login', async (request, reply) => {
    const fields = fieldsOf(request.body);
    const email = textField(fields, 'email', 321).trim();
    const password = textField(fields, 'password', 1025);
    const wanted = textField(fields, 'return_to', 4096);
    const returnTo = isSafeReturnTo(wanted) ? wanted : '';
    const valid = email.length > 0 && email.length <= 320 && password.length > 0 && password.length <= 1024;
    const counters = [
      { key: `ip:${request.ip}`, limit: deps.loginLimits.perIp },
      ...(valid ? [{ key: `email:${email.toLowerCase()}`, limit: deps.loginLimits.perEmail }] : []),
    ];
    try {
      await deps.loginFailures.check(counters);
    } catch (error) {
      request.log.warn({ ip: request.ip }, 'login throttled');
      const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds ?? 60;
      reply.header('retry-after', String(retryAfter));
      const message = `Too many failed logins. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`;
      const page = loginPage({ csrf: reply.generateCsrf(), returnTo, email, error: message });
      return sendPage(reply, 429, page, formActionFor(returnTo));
    }
    const user = valid ? await deps.users.authenticate(email, password) : null;
    if (!user) {
      await deps.loginFailures.recordFailure(counters);
      request.log.info('login failed');
      const page = loginPage({ csrf: reply.generateCsrf(), returnTo, email, error: LOGIN_FAILED });
      return sendPage(reply, 401, page, formActionFor(returnTo));
    }
    await auth.startSession(request, reply, user._id);
    request.log.info({ user_id: user._id }, 'logged in');
    return seeOther(reply, safeReturnTo(returnTo));
  });
}

/** Logging out, in the session's scope: the header's log-out form carries the session's token. */
export function logoutRoutes(app: HttpApp, { auth }: WebContext) {
  app.post('/logout', async (request, reply) => {
    await auth.endSession(request, reply);
    return seeOther(reply, '/login');
  });
}
