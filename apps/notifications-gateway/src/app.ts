import websocket from '@fastify/websocket';
import { createHttpApp, ref, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { SESSION_PARAMETER, sessionAuth } from './auth.js';
import type { GatewayDeps } from './deps.js';
import { renderError } from './render-error.js';
import { routes } from './routes/index.js';
import { loggerWithoutSessionKeys, redactSpanQuery } from './session-redaction.js';
import {
  CoderResponse,
  InboxNotification,
  NotificationPreference,
  NotificationSettings,
  NotificationTemplate,
} from './schemas.js';

export interface BuildAppOptions extends GatewayDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  bodyLimit: number;
  metrics?: MetricsHandler;
}

/** The composition root of the notifications gateway (Coder's /api/v2 notifications API); no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Notifications API',
    version: '2.0.0',
    description:
      'Custom and test notifications, the inbox and its live watch stream, settings, templates and preferences.',
    logger: loggerWithoutSessionKeys(options.logger),
    renderError,
    readiness: options.readiness,
    bodyLimit: options.bodyLimit,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    components: [CoderResponse, InboxNotification, NotificationTemplate, NotificationPreference, NotificationSettings],
    errorBody: () => ref(CoderResponse),
    securitySchemes: {
      session: { type: 'apiKey', in: 'header', name: 'Platform-Session-Token' },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_PARAMETER },
      sessionQuery: { type: 'apiKey', in: 'query', name: SESSION_PARAMETER },
    },
  });
  // First: a browser's session key in the query never reaches a span, whatever happens to the request after.
  app.addHook('onRequest', redactSpanQuery);
  await app.register(websocket, { options: { maxPayload: 4096 } });
  await app.register(async (api) => {
    api.decorateRequest('caller', undefined);
    api.addHook('onRequest', sessionAuth(options.accounts, options.members));
    for (const route of routes) route(api as HttpApp, options);
  });
  return app;
}
