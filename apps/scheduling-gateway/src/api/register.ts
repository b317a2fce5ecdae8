import { OPTIONAL_BODY, Type, bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { requireScope, type BearerCheck } from '@platform/oauth';
import { createContext, type ApiDeps } from './context.js';
import { HANDLERS } from './handlers.js';
import { ROUTE_SCHEMAS } from './route-schemas.js';
import { ROUTES, type RouteName, type RouteSpec } from './route-table.js';
import { ChallengedError, ErrorBody, RetryError, success } from './schemas.js';

const PATH_PARAM = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' });
/** Teams, organizations, event types, schedules and memberships are numbered, as in the real API. */
const NUMERIC_PARAM = Type.String({ pattern: '^[1-9][0-9]{0,14}$', description: 'A positive integer.' });
const NUMERIC_PARAMS = new Set(['teamId', 'orgId', 'eventTypeId', 'scheduleId', 'membershipId']);
/** A POST or PATCH without fields of its own still takes a JSON object (of at most 50 members). */
const AnyBody = Type.Object({}, { additionalProperties: true, maxProperties: 50 });

function paramsOf(url: string) {
  const names = [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  return names.length === 0
    ? undefined
    : Type.Object(Object.fromEntries(names.map((n) => [n, NUMERIC_PARAMS.has(n) ? NUMERIC_PARAM : PATH_PARAM])));
}

/** The error body of a status, with the headers that status carries. */
export function errorSchema(status: number) {
  return status === 401 || status === 403 ? ChallengedError : status === 503 || status === 504 ? RetryError : ErrorBody;
}

/** Creations answer 201; everything else 200 (the real API's codes). */
function successStatus(name: RouteName, spec: RouteSpec): number {
  return spec.method === 'POST' && /^create/.test(name) ? 201 : 200;
}

/**
 * The statuses a route answers besides its success and the framework's own (400, 413, 414, 415, 500, 503,
 * added by createHttpApp): 401 and 403 from the bearer check, 404 for what the caller cannot see, and for a
 * write the worker's refusals (400, 409) and its deadline (504).
 */
function errorStatuses(spec: RouteSpec): number[] {
  const statuses = [404];
  if (spec.scope !== 'public') statuses.push(401, 403);
  if (spec.method !== 'GET') statuses.push(400, 409, 504);
  return statuses;
}

/**
 * Registers the /v2 scheduling API from the route table: the bearer check and the route's scope on every
 * non-public route, its body, query and response schemas, one response envelope `{status: "success", data}`.
 */
export function registerSchedulingApi(app: HttpApp, deps: ApiDeps & { bearer: BearerCheck }): void {
  // Who may act on a team or booking is decided before the body is judged (as the real service's guards
  // run before its validation): a stranger gets 404, never a hint about the body. Handlers check the body
  // with the route's schema before anything is sent.
  const deferred = deferredBodyValidation();
  for (const [name, spec] of Object.entries(ROUTES) as Array<[RouteName, RouteSpec]>) {
    const handler = HANDLERS[name];
    const schemas = ROUTE_SCHEMAS[name];
    const status = successStatus(name, spec);
    const params = paramsOf(spec.url);
    const isPublic = spec.scope === 'public';
    const hasBody = spec.method === 'POST' || spec.method === 'PATCH';
    const body = schemas.body ?? AnyBody;
    const checkBody = hasBody ? bodyChecker(body) : () => undefined;
    // A body that an empty object satisfies (a cancellation's reason, an invite's none) may be left out; one that
    // must name a member or at least one change may not.
    const optionalBody = hasBody && acceptsEmpty(checkBody);
    const bodyOf = (given: unknown) => (given === undefined && optionalBody ? {} : given);
    app.route({
      method: spec.method,
      url: spec.url,
      ...(hasBody ? { validatorCompiler: deferred } : {}),
      ...(isPublic
        ? {}
        : {
            onRequest: deps.bearer.authenticate,
            preHandler: requireScope(spec.scope as Exclude<RouteSpec['scope'], 'public'>),
          }),
      schema: {
        summary: spec.summary,
        operationId: name,
        description: isPublic
          ? 'No token needed.'
          : `Needs the scope ${spec.scope}${spec.scope.startsWith('TEAM_') ? ` (or ORG_${spec.scope.slice(5)})` : ''}.`,
        tags: ['scheduling'],
        ...(isPublic ? {} : { security: [{ bearer: [] }] }),
        ...(params ? { params } : {}),
        ...(schemas.query ? { querystring: schemas.query } : {}),
        ...(hasBody ? { body } : {}),
        ...(optionalBody ? { [OPTIONAL_BODY]: true } : {}),
        response: {
          [status]: success(schemas.data),
          ...Object.fromEntries(errorStatuses(spec).map((s) => [s, errorSchema(s)])),
        },
      },
      handler: async (request, reply) => {
        const ctx = createContext(deps, {
          params: request.params as Record<string, string>,
          query: request.query as Record<string, unknown>,
          body: bodyOf(request.body),
          checkBody: () => checkBody(bodyOf(request.body)),
          userId: request.oauth?.sub,
        });
        const data = await handler(ctx);
        return reply.code(status).send({ status: 'success', data });
      },
    });
  }
}

function acceptsEmpty(check: (body: unknown) => void): boolean {
  try {
    check({});
    return true;
  } catch {
    return false;
  }
}
