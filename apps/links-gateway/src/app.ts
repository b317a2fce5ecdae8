import { createHttpApp, ref, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { tokenAuth } from './auth.js';
import type { GatewayDeps, LinksRoute, RouteDeps } from './deps.js';
import type { PlatformLimits } from './platform-limits.js';
import { oneIdForm } from './one-id-form.js';
import { createQrImages } from './qr-images.js';
import { renderError } from './render-error.js';
import { campaignRoutes } from './routes/campaigns/index.js';
import { channelRoutes } from './routes/channels/index.js';
import { chartRoutes } from './routes/charts/index.js';
import { groupMetricRoutes } from './routes/group-metrics/index.js';
import { groupRoutes } from './routes/groups/index.js';
import { organizationRoutes } from './routes/organizations/index.js';
import { qrCodeMetricRoutes } from './routes/qr-code-metrics/index.js';
import { qrCodeRoutes } from './routes/qr-codes/index.js';
import { shortlinkMetricRoutes } from './routes/shortlink-metrics/index.js';
import { shortlinkRoutes } from './routes/shortlinks/index.js';
import { Shortlink } from './routes/shortlinks/schemas.js';
import { userRoutes } from './routes/user/index.js';
import { webhookRoutes } from './routes/webhooks/index.js';
import { BitlyErrorComponent } from './schemas.js';

export interface BuildAppOptions extends GatewayDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  bodyLimit: number;
  trustProxy?: boolean | number | string[];
  metrics?: MetricsHandler;
  platformLimits: PlatformLimits;
}

/** Every operation of the API (`/v4`), by resource: each list holds one route (or alias pair) per file. */
const API: LinksRoute[] = [
  ...shortlinkRoutes,
  ...userRoutes,
  ...organizationRoutes,
  ...groupRoutes,
  ...campaignRoutes,
  ...channelRoutes,
  ...shortlinkMetricRoutes,
  ...groupMetricRoutes,
  ...qrCodeMetricRoutes,
  ...webhookRoutes,
  ...qrCodeRoutes,
];

/** The composition root of the links gateway (Bitly's API v4 under /v4); no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Link-shortening API',
    version: '4.0.0',
    description:
      'Short links on a default and branded domains, groups, campaigns, channels, users, domains, webhooks, QR codes and their metrics (Bitly API v4 compatible). A path that names a short link takes its id as `{domain}/{hash}` or URL-encoded in one segment (`sho.rt%2Fabc1234`).',
    logger: options.logger,
    renderError,
    rewriteUrl: oneIdForm,
    readiness: options.readiness,
    bodyLimit: options.bodyLimit,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    components: [BitlyErrorComponent, Shortlink],
    errorBody: () => ref(BitlyErrorComponent),
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'The access token (the Bearer prefix is optional)' },
    },
  });
  const deps: RouteDeps = { ...options, qrImages: createQrImages(options.store) };
  await app.register(async (api) => {
    api.decorateRequest('caller', undefined);
    api.addHook('onRoute', (route) => {
      for (const method of [route.method].flat())
        if (method !== 'HEAD' && method !== 'OPTIONS') options.platformLimits.register(route.url, method);
    });
    api.addHook('onRequest', tokenAuth(options.accounts, options.members));
    api.addHook('onRequest', (request) => options.platformLimits.check(request, request.caller!.environment_id));
    for (const route of API) route(api as HttpApp, deps);
  });
  await app.register(async (pages) => {
    for (const route of chartRoutes) route(pages as HttpApp, deps);
  });
  return app;
}
