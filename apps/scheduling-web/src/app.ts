import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { createAuth } from './auth.js';
import { csrfGuard } from './csrf-guard.js';
import type { WebDeps } from './deps.js';
import { htmlErrorHandler, renderNotFound } from './render-error.js';
import { adminReviewRoutes } from './routes/admin-review.route.js';
import { authorizeRoutes } from './routes/authorize.route.js';
import { clientSecretRoutes } from './routes/client-secrets.route.js';
import { clientRoutes } from './routes/clients.route.js';
import { loginRoutes } from './routes/login.route.js';
import { teamInviteRoutes } from './routes/team-invite.route.js';
import { contentSecurityPolicy, SECURITY_HEADERS } from './security-headers.js';
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

  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!reply.hasHeader(name)) reply.header(name, value);
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', contentSecurityPolicy());
    return payload;
  });

  await app.register(cookie, { secret: options.sessionSecret });
  await app.register(formbody, { bodyLimit });

  const ctx: WebContext = { deps: options, auth: createAuth(options) };
  await app.register(async (web) => {
    web.setErrorHandler(htmlErrorHandler(ctx.auth));
    web.addHook('onRequest', ctx.auth.load);
    web.addHook('preHandler', csrfGuard(ctx.auth, options.publicUrl));
    for (const routes of [
      loginRoutes,
      clientRoutes,
      clientSecretRoutes,
      adminReviewRoutes,
      authorizeRoutes,
      teamInviteRoutes,
    ])
      routes(web, ctx);
  });
  return app;
}
