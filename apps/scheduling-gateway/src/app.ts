import formbody from '@fastify/formbody';
import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import type { GatewayDeps } from './deps.js';
import { errorSchema, registerSchedulingApi } from './api/register.js';
import { components } from './api/schemas.js';
import { renderError } from './render-error.js';
import { introspectRoute } from './routes/introspect.route.js';
import { meRoute } from './routes/me.route.js';
import { metadataRoute } from './routes/metadata.route.js';
import { OAuthErrorComponent, oauthError } from './routes/oauth-schemas.js';
import { revokeRoute } from './routes/revoke.route.js';
import { tokenRoute } from './routes/token.route.js';

export interface BuildAppOptions extends GatewayDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  bodyLimit?: number;
  trustProxy?: boolean | number | string[];
  metrics?: MetricsHandler;
}

/** The composition root of the scheduling API gateway ({base_url}); no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Scheduling API',
    version: '2.0.0',
    description: 'OAuth 2.0 token endpoint and the /v2 scheduling API, protected by scoped bearer tokens.',
    logger: options.logger,
    renderError,
    readiness: options.readiness,
    bodyLimit: options.bodyLimit ?? 16_384,
    trustProxy: options.trustProxy ?? false,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    components: [...components, OAuthErrorComponent],
    // The OAuth endpoints answer in RFC 6749's shape, a too-large body as 400; the /v2 API in its own shape.
    errorBody: (url, status) =>
      !url.startsWith('/v2/auth/oauth2/') ? errorSchema(status) : status === 413 ? undefined : oauthError(status),
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <access_token>' },
    },
  });
  await app.register(formbody, { bodyLimit: options.bodyLimit ?? 16_384 });
  for (const route of [tokenRoute, revokeRoute, introspectRoute, metadataRoute, meRoute]) route(app, options);
  registerSchedulingApi(app, options);
  return app;
}
