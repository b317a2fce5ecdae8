import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { tokenAuth } from './auth.js';
import type { GatewayDeps } from './deps.js';
import { renderError } from './render-error.js';
import { accountRoutes } from './routes/account.routes.js';
import { chartRoutes } from './routes/charts.routes.js';
import { campaignRoutes } from './routes/campaigns.routes.js';
import { groupRoutes } from './routes/groups.routes.js';
import { metricsRoutes } from './routes/metrics.routes.js';
import type { PlatformLimits } from './platform-limits.js';
import { shortlinkRoutes } from './routes/shortlinks.routes.js';
import { webhookRoutes } from './routes/webhooks.routes.js';
import { qrCodeRoutes } from './routes/qr-codes.routes.js';
import { createQrImages } from './qr-images.js';

export interface BuildAppOptions extends GatewayDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  bodyLimit: number;
  trustProxy?: boolean | number | string[];
  metrics?: MetricsHandler;
  platformLimits: PlatformLimits;
}

const ErrorBody = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string' },
    description: { type: 'string' },
    resource: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, error_code: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
} as const;

/** The composition root of the links gateway (Bitly's API v4 under /v4); no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Link-shortening API',
    description:
      'Short links on a default and branded domains, groups, campaigns, channels, users, domains and webhooks (Bitly API v4 compatible).',
    logger: options.logger,
    renderError,
    readiness: options.readiness,
    bodyLimit: options.bodyLimit,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    errorBody: () => ErrorBody,
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'The access token (the Bearer prefix is optional)' },
    },
  });
  const qrImages = createQrImages(options.store);
  await app.register(async (api) => {
    api.decorateRequest('caller', undefined);
    api.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        if (method !== 'HEAD' && method !== 'OPTIONS') options.platformLimits.register(route.url, method);
    });
    api.addHook('onRequest', tokenAuth(options.accounts, options.members));
    api.addHook('onRequest', (request) => options.platformLimits.check(request, request.caller!.environment_id));
    shortlinkRoutes(api as HttpApp, options);
    accountRoutes(api as HttpApp, options);
    groupRoutes(api as HttpApp, options);
    campaignRoutes(api as HttpApp, options);
    metricsRoutes(api as HttpApp, options);
    webhookRoutes(api as HttpApp, options);
    qrCodeRoutes(api as HttpApp, { ...options, qrImages });
  });
  // The analytics pages authenticate themselves (a form, then a cookie): outside the API's token hook.
  await app.register(async (pages) => chartRoutes(pages as HttpApp, options));
  return app;
}
