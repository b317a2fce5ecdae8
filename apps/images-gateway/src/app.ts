import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { basicAuth } from './auth.js';
import { compressionCountHeader, frameworkErrorCount } from './compression-count.js';
import type { GatewayDeps } from './deps.js';
import { renderError } from './render-error.js';
import { getOutputRoute } from './routes/output/get-output.route.js';
import { postOutputRoute } from './routes/output/post-output.route.js';
import { shrinkRoute } from './routes/shrink/shrink.route.js';
import { components, errorSchema } from './schemas.js';

export interface BuildAppOptions extends GatewayDeps {
  logger: Logger;
  readiness: ReadinessCheck[];
  trustProxy?: boolean | number | string[];
  metrics?: MetricsHandler;
}

/** The composition root of the image-compression gateway; no side effects on import. */
export async function buildApp(options: BuildAppOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Image compression API',
    version: '1.0.0',
    description:
      'Compress, resize, convert and store AVIF, WebP, JPEG and PNG images; compressions are counted per month.',
    logger: options.logger,
    renderError,
    components,
    readiness: options.readiness,
    bodyLimit: options.uploadLimitBytes,
    // The answer may wait for a worker up to the command timeout, with nothing sent meanwhile.
    idleTimeoutMs: options.commandTimeoutMs + 10_000,
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    errorBody: (_url, status) => errorSchema(status),
    frameworkErrorHeaders: frameworkErrorCount(options.accounts, options.counts),
    securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'User name api, password the API key' } },
  });

  await app.register(async (api) => {
    api.decorateRequest('accountId', undefined);
    // Image bodies arrive with any Content-Type or none (official clients send none): read them as bytes,
    // up to the route's body limit. JSON stays JSON ({"source": {"url"}} and the output options).
    api.removeContentTypeParser('text/plain');
    api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    api.addHook('onRequest', basicAuth(options.accounts));
    api.addHook('onSend', compressionCountHeader(options.counts));
    for (const route of [shrinkRoute, getOutputRoute, postOutputRoute]) route(api as HttpApp, options);
  });
  return app;
}
