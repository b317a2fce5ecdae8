import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { apiKeyAuth } from './auth.js';
import type { GatewayDeps } from './deps.js';
import { renderError } from './render-error.js';
import { createCorsOriginRoute } from './routes/cors-origins/create-cors-origin.route.js';
import { previewJwtTemplateRoute } from './routes/jwt-template/preview-jwt-template.route.js';
import { updateJwtTemplateRoute } from './routes/jwt-template/update-jwt-template.route.js';
import { createRedirectUriRoute } from './routes/redirect-uris/create-redirect-uri.route.js';
import { createUserRoute } from './routes/users/create-user.route.js';
import { getUserByExternalIdRoute } from './routes/users/get-user-by-external-id.route.js';
import { getUserRoute } from './routes/users/get-user.route.js';
import { listUsersRoute } from './routes/users/list-users.route.js';
import { updateUserRoute } from './routes/users/update-user.route.js';
import { deleteUserRoute } from './routes/users/delete-user.route.js';
import { listEventsRoute } from './routes/events/list-events.route.js';
import { createWebhookEndpointRoute } from './routes/webhook-endpoints/create-webhook-endpoint.route.js';
import { deleteWebhookEndpointRoute } from './routes/webhook-endpoints/delete-webhook-endpoint.route.js';
import { listWebhookEndpointsRoute } from './routes/webhook-endpoints/list-webhook-endpoints.route.js';
import { updateWebhookEndpointRoute } from './routes/webhook-endpoints/update-webhook-endpoint.route.js';
import { listWebhookDeliveriesRoute } from './routes/webhook-endpoints/list-webhook-deliveries.route.js';
import { redeliverWebhooksRoutes } from './routes/webhook-endpoints/redeliver-webhooks.route.js';
import { rotateWebhookEndpointSecretRoute } from './routes/webhook-endpoints/rotate-webhook-endpoint-secret.route.js';
import { ErrorBody, components } from './schemas.js';

export interface BuildAppOptions extends GatewayDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  bodyLimit?: number;
  metrics?: MetricsHandler;
}

/** The composition root of the user-management gateway; no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'User management API',
    version: '1.0.0',
    description:
      'CORS origins, JWT template, redirect URIs, webhook endpoints, users and the event log of one environment.',
    logger: options.logger,
    renderError,
    readiness: options.readiness,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    components,
    errorBody: () => ErrorBody,
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
  });

  await app.register(async (api) => {
    api.addHook('onRequest', apiKeyAuth(options.accounts));
    for (const route of [
      createCorsOriginRoute,
      updateJwtTemplateRoute,
      previewJwtTemplateRoute,
      createRedirectUriRoute,
      listWebhookEndpointsRoute,
      createWebhookEndpointRoute,
      updateWebhookEndpointRoute,
      deleteWebhookEndpointRoute,
      rotateWebhookEndpointSecretRoute,
      listWebhookDeliveriesRoute,
      redeliverWebhooksRoutes,
      createUserRoute,
      listUsersRoute,
      getUserRoute,
      getUserByExternalIdRoute,
      updateUserRoute,
      deleteUserRoute,
      listEventsRoute,
    ]) {
      route(api as HttpApp, options);
    }
  });
  return app;
}
