import { STATUS_CODES } from 'node:http';
import {
  createHttpApp,
  defaultStatusFor,
  type FastifyReply,
  type FastifyRequest,
  type HttpApp,
  type ReadinessCheck,
} from '@platform/http';
import type { Logger, MetricsHandler } from '@platform/telemetry';
import { isBot } from './bots.js';
import type { ClickBuffer } from './click-buffer.js';
import type { Resolver, Target } from './resolver.js';
import { lazyChildLogger } from './lazy-logger.js';
import { passQuery } from './pass-query.js';
import type { RedirectTracing } from './tracing.js';

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
  /** Spans for a sample of redirects (the process does not trace every request: ADR 0017). */
  tracing?: RedirectTracing;
  /** Counts every answer by status and its time in seconds (from routing to the answer sent), read by the metrics at scrape time. */
  onAnswer?: (status: 301 | 302 | 404, seconds: number) => void;
}

const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title></head>' +
  '<body><h1>Link not found</h1><p>This short link does not exist, has expired or was turned off by its owner.</p></body></html>';
const HASH = /^[A-Za-z0-9_-]{1,100}$/;
const QR_MARKER = /[?&]qr=([A-Za-z0-9_-]{1,40})(?:&|$)/;

/** The QR code a request names (`?qr=<id>`, what a QR code of ours encodes), or null. */
function qrCodeOf(url: string): string | null {
  if (url.indexOf('?') === -1) return null;
  return QR_MARKER.exec(url)?.[1] ?? null;
}

/**
 * Answers `host + path` with the link's redirect and records the click without waiting for Kafka. The hot path
 * (a link in memory) is synchronous: no promise, no log line, no span unless sampled, no metric label lookup.
 */
export async function buildRedirector(options: RedirectorOptions): Promise<HttpApp> {
  const app = await createHttpApp({
    name: 'Redirector',
    description: 'Short links to their destinations.',
    logger: options.logger,
    readiness: options.readiness,
    requestLogging: false,
    // A malformed path (bad percent-encoding) is the client's: 400, as every other input error; a 5xx says nothing more.
    renderError: (error) => {
      const statusCode = defaultStatusFor(error.kind);
      return {
        statusCode,
        body: { message: statusCode >= 500 ? 'Internal error' : (STATUS_CODES[statusCode] ?? 'Error') },
      };
    },
    ...(options.trustProxy !== undefined ? { trustProxy: options.trustProxy } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const boot = Date.now().toString(36);
  const clickIdPrefix = `${options.replicaId}:${boot}:`;
  let sequence = 0;
  const { resolver, tracing, onAnswer } = options;

  /** `domain/hash` of a request, or undefined when the path cannot be a back-half. */
  function linkId(request: FastifyRequest): string | undefined {
    const host = (request.host ?? '').toLowerCase();
    const domain = host === options.defaultDomain ? host : host.replace(/:\d+$/, '');
    const url = request.url;
    const query = url.indexOf('?');
    let hash = query === -1 ? url.slice(1) : url.slice(1, query);
    if (hash.includes('%')) {
      try {
        hash = decodeURIComponent(hash);
      } catch {
        return undefined;
      }
    }
    return HASH.test(hash) ? `${domain}/${hash}` : undefined;
  }

  function answer(request: FastifyRequest, reply: FastifyReply, target: Target | null) {
    if (!target) {
      reply
        .code(404)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(NOT_FOUND_PAGE);
      // Fastify has read the clock when routing the request: one more read measures it.
      onAnswer?.(404, reply.elapsedTime / 1000);
      return reply;
    }
    const userAgent = request.headers['user-agent'];
    const referrer = request.headers.referer;
    // Only a code of this link is a scan: a marker copied onto another link is a plain click.
    const qr = target.qr_code_ids.length > 0 ? qrCodeOf(request.url) : null;
    const scanned = qr !== null && target.qr_code_ids.includes(qr);
    // The short URL's query goes on to the destination (the QR marker of a scan stays with us).
    const at = request.url.indexOf('?');
    const { location, passed } =
      at === -1
        ? { location: target.long_url, passed: '' }
        : passQuery(target.long_url, request.url.slice(at + 1), scanned ? `qr=${qr}` : null);
    // A HEAD is answered like a GET but counted as nothing: link unfurlers and uptime checks send it, people do not.
    if (request.method !== 'HEAD')
      options.clicks.add({
        click_id: clickIdPrefix + ++sequence,
        id: target.id,
        organization_id: target.organization_id,
        group_guid: target.group_guid,
        long_url: target.long_url,
        clicked_at: Date.now(),
        referrer: referrer ? referrer.slice(0, 2048) : null,
        user_agent: userAgent ? userAgent.slice(0, 512) : null,
        client_ip: request.ip ?? null,
        bot: isBot(userAgent),
        qr: scanned,
        qrcode_id: scanned ? qr : null,
        passed_params: passed,
      });
    reply.code(target.status).header('location', location).header('cache-control', options.cacheControl).send();
    onAnswer?.(target.status, reply.elapsedTime / 1000);
    return reply;
  }

  app.get('/*', { schema: { hide: true }, childLoggerFactory: lazyChildLogger }, (request, reply) => {
    const span = tracing?.start(request);
    const id = linkId(request);
    const known = id === undefined ? null : resolver.cached(id);
    if (known !== undefined) {
      answer(request, reply, known);
      span?.end(reply.statusCode);
      return;
    }
    // Not in memory: one store read (shared by concurrent misses), then the same answer.
    return resolver.resolve(id!).then(
      (target) => {
        answer(request, reply, target);
        span?.end(reply.statusCode);
        return reply;
      },
      (error: unknown) => {
        span?.fail(error);
        throw error;
      },
    );
  });
  return app;
}
