import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import sensible from '@fastify/sensible';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type preHandlerHookHandler,
  type preValidationHookHandler,
} from 'fastify';
import { InputError, MethodNotAllowedError, NotFoundError } from '@platform/errors';
import { allowedMethods } from './allowed-methods.js';
import { fromFastifyError, validationError } from './fastify-errors.js';
import { documentFrameworkStatuses } from './framework-statuses.js';
import { UNMATCHED_ROUTE, httpRouteChannel, publishRoute } from './route-label.js';
import { storeUnsafeKey } from './store-safe-keys.js';
import type { ErrorRenderer } from './render.js';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export interface HttpAppOptions {
  name: string;
  version?: string;
  description?: string;
  logger: FastifyBaseLogger;
  renderError: ErrorRenderer;
  readiness?: ReadinessCheck[];
  bodyLimit?: number;
  /**
   * How long a connection may stay silent before it is closed (default 30 s). An app whose answer may wait longer
   * for a worker (the images gateway waits up to its command timeout) must allow more, or the wait is cut off.
   */
  idleTimeoutMs?: number;
  /** Security schemes for the OpenAPI document (route schemas name them in `security`). */
  securitySchemes?: NonNullable<NonNullable<FastifyDynamicSwaggerOptions['openapi']>['components']>['securitySchemes'];
  /** Which proxies to believe for the client address (see parseTrustProxy in @platform/config). */
  trustProxy?: boolean | number | string[];
  /**
   * The API's error body schema for a route's URL and status: every route's responses are completed with the
   * statuses the framework itself can answer (400, 413, 414, 415, 500, 503) in this shape. Undefined for a
   * status the API's renderer answers as another.
   */
  errorBody?: (url: string, status: number) => unknown;
  /**
   * Headers an API adds to the router's own rejections (414, a malformed URL), which no route hook sees: the
   * images API's Compression-Count for a caller it can identify. A failure adds nothing.
   */
  frameworkErrorHeaders?: (request: FastifyRequest) => Promise<Record<string, string>>;
  /**
   * Shapes the routes share, each with an `$id`: they are the document's named components
   * (`#/components/schemas/<$id>`), referenced from route schemas with `ref(schema)`.
   */
  components?: readonly TSchema[];
  /** Serves Prometheus metrics at `/metrics` (the telemetry lib's handler). */
  metrics?: (request: IncomingMessage, response: ServerResponse) => void;
  /**
   * Fastify's two log lines per request ("incoming request", "request completed"), on by default. Failures
   * are logged either way; a process that answers thousands of cheap requests a second turns them off.
   */
  requestLogging?: boolean;
  /**
   * The URL to route a request by, from the one it came with (Fastify's `rewriteUrl`): an API with two spellings
   * of one address turns the second into the first, so that every route knows one. `request.originalUrl` keeps
   * what was sent.
   */
  rewriteUrl?: (url: string) => string;
}

/** The route schema key that documents its body as optional (the route treats an absent body as `{}`). */
export const OPTIONAL_BODY = 'x-optional-body';

type OpenApiDocument = { paths?: Record<string, Record<string, Record<string, unknown>>> };

/**
 * @fastify/swagger marks every request body required; an operation whose schema carries OPTIONAL_BODY takes none
 * as well, and says so (`requestBody.required: false`), so that clients and fuzzers may leave it out.
 */
function optionalBodies(document: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {}))
    for (const operation of Object.values(operations)) {
      if (operation[OPTIONAL_BODY] !== true) continue;
      delete operation[OPTIONAL_BODY];
      const body = operation['requestBody'] as { required?: boolean } | undefined;
      if (body) body.required = false;
    }
  return document;
}

/** A route's JSON body schema (the `application/json` one where it names several media types). */
function bodySchemaOf(schema: unknown): unknown {
  const body = (schema as { body?: { content?: Record<string, { schema?: unknown }> } } | undefined)?.body;
  if (body?.content) return body.content['application/json']?.schema ?? {};
  return body;
}

/** A response without a body (204, 304, or a 200 the spec leaves empty): documented with no content. */
export function NoContent(description: string) {
  return Type.Unsafe<undefined>({ type: 'null', description });
}

/** A reference to a shared shape (one of `components`): validated and typed as the shape, documented once. */
export function ref<T extends TSchema>(schema: T): T {
  if (typeof (schema as { $ref?: unknown }).$ref === 'string') return schema; // already a reference
  if (typeof schema.$id !== 'string') throw new Error('ref(schema): the schema has no $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id)) as unknown as T;
}

export type HttpApp = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, TypeBoxTypeProvider>;

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

// ajv-formats is CommonJS with a default export; under NodeNext it arrives as the module namespace.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

/**
 * Bodies are validated exactly as sent (42 is not the string "42"); query strings, params and headers
 * arrive as text, so their values are coerced to the schema's types.
 */
const makeAjv = (coerceTypes: boolean | 'array') =>
  addFormats(
    new Ajv({
      allErrors: true,
      verbose: true,
      removeAdditional: false,
      useDefaults: true,
      coerceTypes,
      strict: false,
      // A `oneOf` with an OpenAPI discriminator is judged by the branch its tag names (issues about that branch).
      discriminator: true,
    }),
  );

/** The route validators of one app; `components` are the shared shapes its schemas may `ref`. */
function validators(components: readonly TSchema[] = []) {
  const strict = makeAjv(false);
  const coercing = makeAjv('array');
  for (const schema of components) [strict, coercing].forEach((ajv) => ajv.addSchema(schema));
  // Compiled on first use: a gateway with a hundred routes is ready (and a rolling restart moves on) without
  // compiling every validator first.
  return ({ schema, httpPart }: { schema: object; httpPart?: string }) => {
    let validate: ValidateFunction | undefined;
    const lazy = (data: unknown) => {
      validate ??= (httpPart === 'body' ? strict : coercing).compile(schema);
      const valid = validate(data);
      lazy.errors = validate.errors;
      return valid;
    };
    lazy.errors = null as ValidateFunction['errors'];
    return lazy;
  };
}

/** Fastify's response serializers (fast-json-stringify, with the app's shared schemas), each built on first use. */
const lazySerializers: typeof SerializerSelector extends () => infer F ? F : never = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= build(route))(data);
  };
};

let checkers: Ajv | undefined;

/**
 * A route whose body is documented by its schema but checked later, by the handler, with `checkBody`: for
 * APIs that decide who may act on a resource before judging the body (the caller learns nothing about a
 * resource it cannot see from a validation error). Pass as the route's `validatorCompiler`.
 */
export function deferredBodyValidation(components: readonly TSchema[] = []) {
  const compile = validators(components);
  return (route: { schema: object; httpPart?: string }) => (route.httpPart === 'body' ? () => true : compile(route));
}

/** Checks a body against its schema exactly as route validation would, throwing the same input error. */
export function bodyChecker(schema: object): (body: unknown) => void {
  checkers ??= makeAjv(false);
  const validate = checkers.compile(schema);
  return (body) => {
    if (!validate(body)) throw validationError(validate.errors ?? [], 'body');
  };
}

/**
 * The one Fastify factory every gateway uses: schema validation on every route, one error model rendered
 * in each API's own shape, `/healthz`, `/readyz` and `/openapi.json`.
 */
/**
 * The router's own bound on a path parameter, in characters as sent (percent-encoded: a character may take
 * nine). Each route's schema bounds its parameters in decoded characters and answers 400 in the API's shape;
 * this limit only stops a pathological URL before it is decoded (414).
 */
const MAX_PARAM_LENGTH = 8192;
/**
 * Node's bound on the request line and headers together. Its default, 16 KiB, is below the query strings the
 * routes' schemas allow (each list parameter is bounded, but a character may take nine bytes percent-encoded),
 * which would be answered 431 in no API's shape; no larger than a request body may be anyway.
 */
const MAX_HEADER_BYTES = 256 * 1024;

export async function createHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  // Telemetry starts before the app is built; a process without a subscriber (the redirector, which has no
  // per-request HTTP instrument, or a test) gets no extra hook on its requests.
  const labelRoutes = httpRouteChannel.hasSubscribers;
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // A hop count trusts the n proxies nearest to us (proxy-addr's semantics, written as the function Fastify's types take).
    trustProxy: typeof options.trustProxy === 'number' ? trustHops(options.trustProxy) : (options.trustProxy ?? false),
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // A draining process serves every request that still reaches it: one whose bytes arrive just after SIGTERM
    // was sent before it (a balancer's pooled connection), and a 503 would cut it off, since balancers retry
    // neither a POST nor a 503. The runtime answers with `Connection: close` while draining, so each open
    // connection carries at most that one more request, and the closed listener takes no new ones.
    return503OnClosing: false,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    ...(options.requestLogging === false ? { logController: new LogController({ disableRequestLogging: true }) } : {}),
    connectionTimeout: options.idleTimeoutMs ?? 30_000,
    requestTimeout: 60_000,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ...(options.rewriteUrl ? { rewriteUrl: (req: IncomingMessage) => options.rewriteUrl!(req.url ?? '/') } : {}),
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    // The router's own rejections (a path parameter over maxParamLength: 414; a malformed URL: 400) in the
    // API's error shape, not Fastify's default body.
    frameworkErrors: (error, request, reply) => {
      if (labelRoutes) httpRouteChannel.publish({ route: UNMATCHED_ROUTE });
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const rendered = options.renderError(
        tooLong
          ? new InputError('uri_too_long', `A path parameter is longer than ${MAX_PARAM_LENGTH} characters.`)
          : new InputError('bad_url', 'The URL is not valid.'),
        request,
      );
      const send = (extra: Record<string, string>) =>
        (reply as unknown as FastifyReply)
          .code(tooLong ? 414 : rendered.statusCode)
          .headers({ ...rendered.headers, ...extra })
          .type('application/json; charset=utf-8')
          .send(rendered.body);
      if (!options.frameworkErrorHeaders) return void send({});
      void options
        .frameworkErrorHeaders(request as unknown as FastifyRequest)
        .catch(() => ({}))
        .then(send);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validators(options.components));
  // First of every onRequest hook, so that a request refused by authentication still carries its route.
  if (labelRoutes) {
    app.addHook('onRequest', (request, _reply, done) => {
      publishRoute(request);
      done();
    });
  }
  await app.register(sensible);

  // A body is JSON unless a route's own parser says otherwise: text/plain (Fastify's other default) is 415.
  app.removeContentTypeParser('text/plain');
  // Official SDKs of some APIs send `Content-Type: application/json` with an empty body on GET and DELETE.
  // A `__proto__` or `constructor.prototype` member is dropped rather than refused: no route names one, and
  // unknown members are ignored.
  const defaultJson = app.getDefaultJsonParser('remove', 'remove');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    defaultJson(request, body.toString(), (error, value) => {
      if (error) return done(new InputError('invalid_json', 'The request body is not valid JSON.'), undefined);
      done(null, value);
    });
  });

  const errorBody = options.errorBody;
  if (errorBody) app.addHook('onRoute', (route) => documentFrameworkStatuses(route, errorBody));

  for (const schema of options.components ?? []) app.addSchema(schema);
  await app.register(swagger, {
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`,
    },
    openapi: {
      openapi: '3.1.0',
      info: { title: options.name, version: options.version ?? '1.0.0', description: options.description ?? '' },
      components: { securitySchemes: options.securitySchemes ?? {} },
    },
    transformObject: (document) =>
      'openapiObject' in document ? optionalBodies(document.openapiObject as OpenApiDocument) : document.swaggerObject,
  });

  // Hooks that run on every request are callback-style: no promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  // Object keys a client chooses (metadata, maps) become field names in the store, where MongoDB forbids an empty
  // key, `.`, a leading `$` and NUL: refused in the API's own shape once the body has passed its schema, before
  // anything is sent on. Members the schema does not name are never stored, so they are not judged.
  const components = new Map((options.components ?? []).map((schema) => [schema.$id!, schema]));
  // The same holds for NUL in a path parameter or a query parameter a route reads: it would reach a store query.
  app.addHook('onRoute', (route) => {
    const schema = (route.schema ?? {}) as { params?: unknown; querystring?: unknown };
    const parts = (
      [
        ['params', 'invalid_params'],
        ['query', 'invalid_query'],
      ] as const
    ).filter(([part]) => (part === 'params' ? schema.params : schema.querystring) !== undefined);
    if (parts.length === 0) return;
    const refuseNul: preValidationHookHandler = (request, _reply, done) => {
      for (const [part, code] of parts) {
        const values = (request[part] ?? {}) as Record<string, unknown>;
        for (const [name, value] of Object.entries(values)) {
          if ([value].flat().some((v) => typeof v === 'string' && v.includes('\u0000'))) {
            const message = `${name} may not contain NUL characters`;
            return done(
              new InputError(code, message, { issues: [{ field: name, code: 'invalid_character', message }] }),
            );
          }
        }
      }
      done();
    };
    route.preValidation = [refuseNul, ...[route.preValidation ?? []].flat()];
  });
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every((method) => BODYLESS.has(method))) return;
    const body = bodySchemaOf(route.schema);
    const refuseStoreUnsafeKeys: preHandlerHookHandler = (request, _reply, done) => {
      const issue =
        request.body === undefined ? undefined : storeUnsafeKey(request.body, body, (id) => components.get(id));
      done(issue ? new InputError('validation_failed', issue.message, { issues: [issue] }) : undefined);
    };
    route.preHandler = [refuseStoreUnsafeKeys, ...[route.preHandler ?? []].flat()];
  });

  app.setErrorHandler((raw, request, reply) => {
    const error = fromFastifyError(raw);
    const rendered = options.renderError(error, request);
    if (rendered.statusCode >= 500) request.log.error({ err: raw }, 'request failed');
    else request.log.info({ code: error.code, status: rendered.statusCode }, 'request rejected');
    void reply
      .code(rendered.statusCode)
      .headers(rendered.headers ?? {})
      .type('application/json; charset=utf-8')
      .send(rendered.body);
  });

  // A known path asked with a method it is not served with is 405 (with Allow), answered before any body is
  // read: the not-found route would parse one first.
  const allowed = allowedMethods();
  app.addHook('onRoute', (route) => allowed.add(route));
  app.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?')[0]!;
    const methods = request.is404 ? allowed.of(path) : allowed.shadowing(request.routeOptions.url ?? '', path);
    if (!methods || methods.length === 0 || (!request.is404 && methods.includes(request.method))) return done();
    void reply.header('allow', methods.join(', '));
    done(
      new MethodNotAllowedError(
        'method_not_allowed',
        `${request.method} is not allowed here; use ${methods.join(', ')}.`,
        {
          allowed: methods,
        },
      ),
    );
  });
  app.setNotFoundHandler((request, reply) => {
    const rendered = options.renderError(new NotFoundError('route_not_found', 'Not Found'), request);
    void reply
      .code(rendered.statusCode)
      .headers(rendered.headers ?? {})
      .send(rendered.body);
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const results = await Promise.all(
      (options.readiness ?? []).map(async ({ name, check }) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            check(),
            new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out')), 2000))),
          ]);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, `failed: ${(error as Error).message}`] as const;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const ready = results.every(([, state]) => state === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'unavailable', checks: Object.fromEntries(results) });
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  // The API reference, rendered in the browser from /openapi.json by Swagger UI, whose files the package serves
  // itself (no CDN: the page works where the gateway's network ends).
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, docExpansion: 'list', tryItOutEnabled: false },
    staticCSP: true,
  });

  const metrics = options.metrics;
  if (metrics) {
    app.get('/metrics', { schema: { hide: true } }, (request, reply) => {
      reply.hijack();
      metrics(request.raw, reply.raw);
    });
  }

  return app as unknown as HttpApp;
}
