import { createHttpApp, type HttpApp, type ReadinessCheck } from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { isBot } from './bots.js';
import type { ClickBuffer } from './click-buffer.js';
import type { Resolver } from './resolver.js';

export interface RedirectorOptions {
  logger: Logger;
  readiness: ReadinessCheck[];
  resolver: Resolver;
  clicks: ClickBuffer;
  defaultDomain: string;
  /** Names this replica in click ids. */
  replicaId: string;
  cacheControl: string;
  trustProxy?: boolean | number | string[];
  metrics?: MetricsHandler;
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title></head>' +
  '<body><h1>Link not found</h1><p>This short link does not exist, has expired or was turned off by its owner.</p></body></html>';
const HASH = /^[A-Za-z0-9_-]{1,100}$/;

/** Answers `host + path` with the link's redirect and records the click without waiting for Kafka. */
export async function buildRedirector(options: RedirectorOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Redirector',
    description: 'Short links to their destinations.',
    logger: options.logger,
    readiness: options.readiness,
    renderError: (error) => ({ statusCode: error.kind === 'not_found' ? 404 : 500, body: { message: error.kind === 'not_found' ? 'Not Found' : 'Internal error' } }),
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const boot = Date.now().toString(36);
  let sequence = 0;

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const host = (request.host ?? '').toLowerCase();
    const domain = host === options.defaultDomain ? host : host.replace(/:\d+$/, '');
    const path = request.url.split('?')[0]!.slice(1);
    let hash = path;
    try {
      hash = decodeURIComponent(path);
    } catch {
      hash = '';
    }
    const target = HASH.test(hash) ? await options.resolver.resolve(`${domain}/${hash}`) : null;
    if (!target) {
      return reply.code(404).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(NOT_FOUND_PAGE);
    }
    const userAgent = request.headers['user-agent'];
    const referrer = request.headers.referer;
    options.clicks.add({
      click_id: `${options.replicaId}:${boot}:${++sequence}`,
      id: target.id,
      organization_id: target.organization_id,
      group_guid: target.group_guid,
      long_url: target.long_url,
      clicked_at: Date.now(),
      referrer: referrer ? referrer.slice(0, 2048) : null,
      user_agent: userAgent ? userAgent.slice(0, 512) : null,
      client_ip: request.ip ?? null,
      bot: isBot(userAgent),
      qr: false,
    });
    return reply.code(target.status).header('location', target.long_url).header('cache-control', options.cacheControl).send();
  });
  return app;
}
