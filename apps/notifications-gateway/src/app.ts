import websocket from '@fastify/websocket';
import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { sessionAuth } from './auth.js';
import type { GatewayDeps } from './deps.js';
import { renderError } from './render-error.js';
import { notificationRoutes } from './routes/notifications.routes.js';
import { preferenceRoutes } from './routes/preferences.routes.js';
import { watchRoutes } from './routes/watch.routes.js';

export interface BuildAppOptions extends GatewayDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  bodyLimit: number;
  metrics?: MetricsHandler;
}

const ErrorBody = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    detail: { type: 'string' },
    validations: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, detail: { type: 'string' } } },
    },
  },
} as const;

/** The composition root of the notifications gateway (Coder's /api/v2 notifications API); no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Notifications API',
    description:
      'Custom and test notifications, the inbox and its live watch stream, settings, templates and preferences.',
    logger: options.logger,
    renderError,
    readiness: options.readiness,
    bodyLimit: options.bodyLimit,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    errorBody: () => ErrorBody,
    securitySchemes: { session: { type: 'apiKey', in: 'header', name: 'Platform-Session-Token' } },
  });
  await app.register(websocket, { options: { maxPayload: 4096 } });
  await app.register(async (api) => {
    api.decorateRequest('caller', undefined);
    api.addHook('onRequest', sessionAuth(options.accounts, options.members));
    notificationRoutes(api as HttpApp, options);
    preferenceRoutes(api as HttpApp, options);
    watchRoutes(api as HttpApp, options);
  });
  return app;
}
