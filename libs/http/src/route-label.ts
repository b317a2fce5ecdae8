import diagnostics from 'node:diagnostics_channel';
import type { FastifyRequest } from 'fastify';

/**
 * The channel on which every request's matched route pattern is published, synchronously and inside the
 * request's async context, before any hook of the app runs. @platform/telemetry subscribes and puts it on the
 * incoming request's span and on `http.server.request.duration` (`http_route`); libs/http itself stays free of
 * OpenTelemetry. The pattern, never the URL, keeps the label's values bounded by the route table.
 */
export const HTTP_ROUTE_CHANNEL = 'platform.http.route';

/** The route of a request that matched none (404s, malformed URLs, over-long path parameters). */
export const UNMATCHED_ROUTE = 'unmatched';

export interface HttpRouteMessage {
  route: string;
}

export const httpRouteChannel = diagnostics.channel(HTTP_ROUTE_CHANNEL);

export function publishRoute(request: FastifyRequest): void {
  const message: HttpRouteMessage = { route: request.routeOptions.url ?? UNMATCHED_ROUTE };
  httpRouteChannel.publish(message);
}
