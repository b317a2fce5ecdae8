import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { HttpApp } from '@platform/http';
import { startImagesStack, type ImagesStack } from '../support/images-stack.js';
import { startLinksStack, type LinksStack } from '../support/links-stack.js';
import { startNotificationsStack, type NotificationsStack } from '../support/notifications-stack.js';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack.js';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

/**
 * Every route of every gateway, probed the way a fuzzer would: without credentials, with wrong ones, with a
 * path parameter over the router's limit, with malformed, oversized and mistyped bodies, and with an empty
 * body. Each answer's status must be one the route documents in /openapi.json, and its body must match the
 * schema documented for that status.
 */

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;
type Operation = {
  responses?: Record<string, { content?: Record<string, { schema?: object }>; headers?: Record<string, unknown> }>;
  requestBody?: unknown;
  security?: unknown[];
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, object> } };

interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}
type Send = (request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}) => Promise<Answer>;

interface Gateway {
  name: string;
  /** The components its error answers refer to (the scheduling API has two shapes: /v2's and OAuth's). */
  errorComponents: string[];
  send: () => Send;
  /** Headers with valid credentials, and with wrong ones. */
  credentials: () => Promise<{ valid: Record<string, string>; wrong: Record<string, string> }>;
  /** The request body size limit, to exceed. */
  bodyLimit: number;
}

const injected =
  (app: () => HttpApp): (() => Send) =>
  () =>
  async ({ method, url, headers, payload }) =>
    app().inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });

/** For the stacks that run their gateways as listening servers. */
const overHttp =
  (base: () => string): (() => Send) =>
  () =>
  async ({ method, url, headers, payload }) => {
    const response = await fetch(`${base()}${url}`, {
      method,
      headers,
      // fetch sends no body with GET or HEAD (the injected probes of the other stacks do).
      ...(payload === undefined || method === 'GET' || method === 'HEAD' ? {} : { body: payload }),
      redirect: 'manual',
    });
    return { statusCode: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };

const bearer = (key: string) => ({
  valid: { authorization: `Bearer ${key}` },
  wrong: { authorization: 'Bearer wrong' },
});

let usermgmt: UsermgmtStack;
let oauth: OAuthStack;
let images: ImagesStack;
let notifications: NotificationsStack;
let links: LinksStack;

const gateways: Gateway[] = [
  {
    name: 'usermgmt-gateway',
    errorComponents: ['UsermgmtError'],
    send: injected(() => usermgmt.app),
    credentials: async () => bearer((await usermgmt.newKey()).key),
    bodyLimit: 1024 * 1024,
  },
  {
    name: 'scheduling-gateway',
    errorComponents: ['SchedulingError', 'OAuthError'],
    send: injected(() => oauth.gateway),
    credentials: async () => {
      const user = await oauth.newUser();
      return bearer(
        oauth.accessTokens.issue({ sub: user._id, cid: 'cal_probe', gid: `grt_${user._id}`, scp: [], legacy: true })
          .token,
      );
    },
    bodyLimit: 16_384,
  },
  {
    name: 'images-gateway',
    errorComponents: ['TinifyError'],
    send: injected(() => images.app),
    credentials: async () => ({
      valid: { authorization: `Basic ${Buffer.from(`api:${(await images.newKey()).key}`).toString('base64')}` },
      wrong: { authorization: `Basic ${Buffer.from('api:wrong').toString('base64')}` },
    }),
    bodyLimit: 1024 * 1024,
  },
  {
    name: 'notifications-gateway',
    errorComponents: ['Response'],
    send: overHttp(() => notifications.urls[0]),
    credentials: async () => ({
      valid: { 'platform-session-token': (await notifications.newDeployment()).owner.token },
      wrong: { 'platform-session-token': 'wrong' },
    }),
    bodyLimit: 65_536,
  },
  {
    name: 'links-gateway',
    errorComponents: ['BitlyError'],
    send: overHttp(() => links.url),
    credentials: async () => bearer((await links.newOrganization()).admin.token),
    bodyLimit: 262_144,
  },
];

beforeAll(async () => {
  [usermgmt, oauth, images, notifications, links] = await Promise.all([
    startUsermgmtStack(),
    startOAuthStack(),
    startImagesStack({ workers: 1, uploadLimitBytes: 1024 * 1024 }),
    startNotificationsStack(),
    startLinksStack({}, { dispatcher: false }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([usermgmt?.close(), oauth?.close(), images?.close(), notifications?.close(), links?.close()]);
});

/** Headers of HTTP itself (framing, caching of the connection, the request id every answer carries). */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'vary',
  'x-request-id',
]);

function validatorFor(document: Document) {
  const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
    ajv.addSchema(schema, `#/components/schemas/${name}`);
  const cache = new Map<object, ValidateFunction>();
  return (schema: object) => {
    let validate = cache.get(schema);
    if (!validate) cache.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };
}

function probes(
  path: string,
  method: string,
  credentials: { valid: Record<string, string>; wrong: Record<string, string> },
  bodyLimit: number,
) {
  const url = path.replace(/\{[^}]+\}/g, '1');
  const longUrl = path.replace(/\{[^}]+\}/g, 'x'.repeat(101));
  const json = { 'content-type': 'application/json' };
  const auth = credentials.valid;
  const list: Array<{ what: string; url: string; headers: Record<string, string>; payload?: string | Buffer }> = [
    { what: 'no credentials', url, headers: {} },
    { what: 'wrong credentials', url, headers: { ...credentials.wrong, ...json }, payload: '{}' },
    { what: 'valid credentials', url, headers: auth },
  ];
  if (longUrl !== path) list.push({ what: 'over-long path parameter', url: longUrl, headers: auth });
  if (method !== 'get') {
    list.push(
      { what: 'empty JSON object', url, headers: { ...auth, ...json }, payload: '{}' },
      { what: 'malformed JSON', url, headers: { ...auth, ...json }, payload: '{"a":' },
      { what: 'a JSON array', url, headers: { ...auth, ...json }, payload: '[1,2]' },
      { what: 'unsafe key', url, headers: { ...auth, ...json }, payload: '{"metadata":{"a.b":"x"},"$where":1}' },
      {
        what: 'unknown media type',
        url,
        headers: { ...auth, 'content-type': 'application/x-unknown' },
        payload: 'hello',
      },
      { what: 'oversized body', url, headers: { ...auth, ...json }, payload: `{"a":"${'x'.repeat(bodyLimit + 1)}"}` },
    );
  }
  return list;
}

describe('every document', () => {
  for (const gateway of gateways) {
    // Writes without a body (a redelivery, a test notification, mark-all-as-read, a webhook check) document none.
    it(`${gateway.name} describes a body for every write that takes one and a 2xx answer for every operation`, async () => {
      const send = gateway.send();
      const document = JSON.parse((await send({ method: 'GET', url: '/openapi.json', headers: {} })).body) as Document;
      const missing: string[] = [];
      for (const [path, operations] of Object.entries(document.paths))
        for (const [method, operation] of Object.entries(operations)) {
          if (method === 'head' || method === 'options') continue;
          const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2/.test(status));
          if (success.length === 0) missing.push(`${method} ${path}: no 2xx`);
          // An answer without a body says so by having no content (NoContent); one with content has its schema.
          for (const [status, response] of success)
            if (response.content && !Object.values(response.content).some((c) => c.schema !== undefined))
              missing.push(`${method} ${path}: ${status} without a schema`);
          const body = operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
          if (['post', 'put', 'patch'].includes(method) && body !== undefined)
            if (!Object.values(body.content ?? {}).some((c) => c.schema !== undefined))
              missing.push(`${method} ${path}: a request body without a schema`);
        }
      expect(missing).toEqual([]);
    });

    it(`${gateway.name} names its error bodies once, as components every error answer refers to`, async () => {
      const send = gateway.send();
      const document = JSON.parse((await send({ method: 'GET', url: '/openapi.json', headers: {} })).body) as Document;
      const refs = new Set<string>();
      const inline: string[] = [];
      for (const [path, operations] of Object.entries(document.paths))
        for (const [method, operation] of Object.entries(operations))
          for (const [status, response] of Object.entries(operation.responses ?? {})) {
            if (!/^[45]/.test(status) || !response.content) continue;
            for (const { schema } of Object.values(response.content)) {
              const ref = (schema as { $ref?: string } | undefined)?.$ref;
              if (ref) refs.add(ref);
              else inline.push(`${method} ${path} ${status}`);
            }
          }
      expect(inline).toEqual([]);
      expect([...refs].sort()).toEqual(gateway.errorComponents.map((name) => `#/components/schemas/${name}`).sort());
      for (const name of gateway.errorComponents)
        expect(document.components?.schemas?.[name]).toMatchObject({ type: 'object' });
    });
  }
});

describe('every documented route, probed', () => {
  for (const gateway of gateways) {
    it(`${gateway.name} answers only statuses and headers it documents, with the documented bodies`, async () => {
      const send = gateway.send();
      const document = JSON.parse((await send({ method: 'GET', url: '/openapi.json', headers: {} })).body) as Document;
      const validator = validatorFor(document);
      const credentials = await gateway.credentials();
      const problems: string[] = [];
      let probed = 0;
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          if (method === 'head' || method === 'options') continue;
          for (const probe of probes(path, method, credentials, gateway.bodyLimit)) {
            const response = await send({
              method: method.toUpperCase(),
              url: probe.url,
              headers: probe.headers,
              ...(probe.payload === undefined ? {} : { payload: probe.payload }),
            });
            probed++;
            const where = `${method.toUpperCase()} ${path} (${probe.what}) → ${response.statusCode}`;
            const documented = operation.responses?.[String(response.statusCode)];
            if (!documented) {
              problems.push(
                `${where}: status not documented (documents ${Object.keys(operation.responses ?? {}).join(', ')})`,
              );
              continue;
            }
            const undocumented = Object.keys(response.headers).filter(
              (name) =>
                !TRANSPORT_HEADERS.has(name.toLowerCase()) &&
                !Object.keys(documented.headers ?? {}).some((h) => h.toLowerCase() === name.toLowerCase()),
            );
            if (undocumented.length > 0) problems.push(`${where}: headers not documented: ${undocumented.join(', ')}`);
            const schema = documented.content?.['application/json']?.schema;
            if (!schema || !(response.headers['content-type'] ?? '').toString().startsWith('application/json'))
              continue;
            const validate = validator(schema);
            if (!validate(JSON.parse(response.body)))
              problems.push(
                `${where}: body ${response.body.slice(0, 200)} does not match: ${JSON.stringify(validate.errors)}`,
              );
          }
        }
      }
      expect(probed).toBeGreaterThan(20);
      expect(problems).toEqual([]);
    }, 120_000);
  }
});
