import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import session from '@fastify/session';
import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { createAuth, SESSION_COOKIE } from './auth.js';
import type { WebDeps } from './deps.js';
import { protectLoginForm, protectSessionForms } from './form-protection.js';
import { HELMET_OPTIONS, noStore } from './page-headers.js';
import { htmlErrorHandler, renderNotFound } from './render-error.js';
import { adminReviewRoutes } from './routes/admin-review.route.js';
import { authorizeRoutes } from './routes/authorize.route.js';
import { clientSecretRoutes } from './routes/client-secrets.route.js';
import { clientRoutes } from './routes/clients.route.js';
import { loginRoutes, logoutRoutes } from './routes/login.route.js';
import { teamInviteRoutes } from './routes/team-invite.route.js';
import type { WebContext } from './web-context.js';

export interface BuildAppOptions extends WebDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  /** Signs the `sid` and `csrf` cookies (at least 32 characters). */
  sessionSecret: string;
  bodyLimit?: number;
  trustProxy?: boolean | number | string[];
  metrics?: MetricsHandler;
}

const BODY_LIMIT = 64 * 1024;

/** The composition root of the scheduling web app ({app_url}); no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  if (options.sessionSecret.length < 32) throw new Error('the session secret must be at least 32 characters');
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  const secure = options.publicUrl.startsWith('https:');
  const app = await createHttpApp({
    name: 'Scheduling web app',
    description: 'Developer settings for OAuth clients, their review, and the OAuth authorization page.',
    logger: options.logger,
    renderError: renderNotFound,
    readiness: options.readiness,
    bodyLimit,
    trustProxy: options.trustProxy ?? false,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });

  await app.register(helmet, HELMET_OPTIONS);
  app.addHook('onSend', noStore);
  await app.register(cookie, { secret: options.sessionSecret });
  await app.register(formbody, { bodyLimit });

  const ctx: WebContext = { deps: options, auth: createAuth(options) };
  await app.register(async (web) => {
    await web.register(session, {
      secret: options.sessionSecret,
      cookieName: SESSION_COOKIE,
      // No Max-Age: the cookie lasts as long as the browser; the store ends the session after its idle time.
      cookie: { path: '/', httpOnly: true, secure, sameSite: 'lax' },
      store: options.sessions,
      // A visitor who has not logged in gets no session (the login form's token is the login cookie's).
      saveUninitialized: false,
      // The store renews a session's lifetime on every read; `rolling` would write the whole session back after
      // every response, which can bring back a session that a logout in another tab has just destroyed.
      rolling: false,
    });
    web.setErrorHandler(htmlErrorHandler(ctx.auth));
    web.addHook('onRequest', ctx.auth.load);

    await web.register(async (login) => {
      await protectLoginForm(login, { publicOrigin: options.publicUrl, secure });
      loginRoutes(login, ctx);
    });

    await web.register(async (pages) => {
      await protectSessionForms(pages, {
        publicOrigin: options.publicUrl,
        // Logging out without a session changes nothing (the handler only clears the cookie).
        exempt: (request) => request.routeOptions.url === '/logout' && !ctx.auth.viewer(request),
      });
      pages.addHook('onRequest', ctx.auth.issueCsrf);
      for (const routes of [
        logoutRoutes,
        clientRoutes,
        clientSecretRoutes,
        adminReviewRoutes,
        authorizeRoutes,
        teamInviteRoutes,
      ])
        routes(pages, ctx);
    });
  });
  return app;
}
