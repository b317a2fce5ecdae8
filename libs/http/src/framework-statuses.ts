import type { RouteOptions } from 'fastify';

/**
 * The statuses the framework itself can answer a route with, whatever its handler does: validation (400),
 * body parsing and limits (400, 413, 415), the router's parameter limit (414), an unexpected failure (500)
 * and a dependency that cannot serve it (503: the broker gave up a publish, the store is unreachable). A draining
 * process still answers the requests it reads, with Connection: close.
 */
export function frameworkStatuses(route: Pick<RouteOptions, 'method' | 'url' | 'schema'>): number[] {
  const methods = [route.method].flat();
  // Fastify reads a body on every method but GET and HEAD.
  const hasBody = methods.some((m) => m !== 'GET' && m !== 'HEAD');
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const validated = hasBody || ['body', 'querystring', 'params', 'headers'].some((part) => schema[part] !== undefined);
  const statuses = [500, 503];
  if (validated) statuses.push(400);
  if (hasBody) statuses.push(413, 415);
  if (route.url.includes(':')) statuses.push(414);
  return statuses.sort((a, b) => a - b);
}

/**
 * Completes a route's documented responses with the framework's statuses, in the API's error shape, so that
 * no route can leave one out of /openapi.json (a route's own schema for a status wins; `errorBody` answers
 * undefined for a status the API renders as another).
 */
export function documentFrameworkStatuses(
  route: RouteOptions,
  errorBody: (url: string, status: number) => unknown,
): void {
  const schema = route.schema as
    (Record<string, unknown> & { hide?: boolean; response?: Record<string, unknown> }) | undefined;
  if (!schema || schema.hide) return;
  const response = (schema.response ??= {});
  for (const status of frameworkStatuses(route)) {
    const body = errorBody(route.url, status);
    if (body !== undefined) response[status] ??= body;
  }
}
