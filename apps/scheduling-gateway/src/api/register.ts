import { Type, type HttpApp } from '@platform/http';
import { requireScope, type BearerCheck } from '@platform/oauth';
import { createContext, type ApiDeps } from './context.js';
import { HANDLERS } from './handlers.js';
import { ROUTES, type RouteName, type RouteSpec } from './route-table.js';

const ErrorBody = Type.Object({ status: Type.Literal('error'), error: Type.Object({ code: Type.String(), message: Type.String() }) });
/** Bodies are objects of at most 50 members; the worker validates each field and names the one at fault. */
const Body = Type.Object({}, { additionalProperties: true, maxProperties: 50 });
const PATH_PARAM = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });

function paramsOf(url: string) {
  const names = [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  return names.length === 0 ? undefined : Type.Object(Object.fromEntries(names.map((n) => [n, PATH_PARAM])));
}

/** Creations answer 201; everything else 200 (the real API's codes). */
function successStatus(name: RouteName, spec: RouteSpec): number {
  return spec.method === 'POST' && /^create/.test(name) ? 201 : 200;
}

/**
 * Registers the /v2 scheduling API from the route table: the bearer check and the route's scope on every
 * non-public route, one response envelope `{status: "success", data}`.
 */
export function registerSchedulingApi(app: HttpApp, deps: ApiDeps & { bearer: BearerCheck }): void {
  for (const [name, spec] of Object.entries(ROUTES) as Array<[RouteName, RouteSpec]>) {
    const handler = HANDLERS[name];
    const status = successStatus(name, spec);
    const params = paramsOf(spec.url);
    const isPublic = spec.scope === 'public';
    app.route({
      method: spec.method,
      url: spec.url,
      ...(isPublic ? {} : { onRequest: deps.bearer.authenticate, preHandler: requireScope(spec.scope as Exclude<RouteSpec['scope'], 'public'>) }),
      schema: {
        summary: spec.summary,
        description: isPublic ? 'No token needed.' : `Needs the scope ${spec.scope}${spec.scope.startsWith('TEAM_') ? ` (or ORG_${spec.scope.slice(5)})` : ''}.`,
        tags: ['scheduling'],
        ...(isPublic ? {} : { security: [{ bearer: [] }] }),
        ...(params ? { params } : {}),
        ...(spec.method === 'POST' || spec.method === 'PATCH' ? { body: Body } : {}),
        response: { [status]: Type.Object({ status: Type.Literal('success'), data: Type.Unknown() }), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
      handler: async (request, reply) => {
        const ctx = createContext(deps, {
          params: request.params as Record<string, string>,
          query: request.query as Record<string, unknown>,
          body: request.body,
          userId: request.oauth?.sub,
        });
        const data = await handler(ctx);
        return reply.code(status).send({ status: 'success', data });
      },
    });
  }
}
