import type { FastifyBaseLogger } from 'fastify';
import { createHttpApp, type HttpApp, type HttpAppOptions, type ReadinessCheck } from './create-app.js';

/** `/healthz` and `/readyz` for processes without an API of their own (workers), for Kubernetes probes. */
export async function startHealthServer(options: {
  name: string;
  logger: FastifyBaseLogger;
  port: number;
  host: string;
  readiness: ReadinessCheck[];
  metrics?: HttpAppOptions['metrics'];
}): Promise<HttpApp> {
  const app = await createHttpApp({
    name: options.name,
    logger: options.logger,
    readiness: options.readiness,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    renderError: (error) => ({ statusCode: error.kind === 'not_found' ? 404 : 500, body: { error: error.code } }),
  });
  await app.listen({ port: options.port, host: options.host });
  return app;
}
