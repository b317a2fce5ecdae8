import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { HttpApp } from '@platform/http';
import { startImagesStack, type ImagesStack } from '../support/images-stack.js';
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
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
  requestBody?: unknown;
  security?: unknown[];
};
type Document = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, object> } };

interface Gateway {
  name: string;
  app: () => HttpApp;
  /** A valid Authorization header. */
  credentials: () => Promise<string>;
  /** The request body size limit, to exceed. */
  bodyLimit: number;
}

let usermgmt: UsermgmtStack;
let oauth: OAuthStack;
let images: ImagesStack;

const gateways: Gateway[] = [
  {
    name: 'usermgmt-gateway',
    app: () => usermgmt.app,
    credentials: async () => `Bearer ${(await usermgmt.newKey()).key}`,
    bodyLimit: 1024 * 1024,
  },
  {
    name: 'scheduling-gateway',
    app: () => oauth.gateway,
    credentials: async () => {
      const user = await oauth.newUser();
      return `Bearer ${oauth.accessTokens.issue({ sub: user._id, cid: 'cal_probe', gid: `grt_${user._id}`, scp: [], legacy: true }).token}`;
    },
    bodyLimit: 16_384,
  },
  {
    name: 'images-gateway',
    app: () => images.app,
    credentials: async () => `Basic ${Buffer.from(`api:${(await images.newKey()).key}`).toString('base64')}`,
    bodyLimit: 1024 * 1024,
  },
];

beforeAll(async () => {
  [usermgmt, oauth, images] = await Promise.all([
    startUsermgmtStack(),
    startOAuthStack(),
    startImagesStack({ workers: 1, uploadLimitBytes: 1024 * 1024 }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([usermgmt?.close(), oauth?.close(), images?.close()]);
});

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

function probes(path: string, method: string, operation: Operation, credentials: string, bodyLimit: number) {
  const url = path.replace(/\{[^}]+\}/g, '1');
  const longUrl = path.replace(/\{[^}]+\}/g, 'x'.repeat(101));
  const json = { 'content-type': 'application/json' };
  const auth = { authorization: credentials };
  const list: Array<{ what: string; url: string; headers: Record<string, string>; payload?: string | Buffer }> = [
    { what: 'no credentials', url, headers: {} },
    { what: 'wrong credentials', url, headers: { authorization: 'Bearer wrong', ...json }, payload: '{}' },
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

describe('every documented route, probed', () => {
  for (const gateway of gateways) {
    it(`${gateway.name} answers only statuses it documents, with the documented bodies`, async () => {
      const app = gateway.app();
      const document = JSON.parse((await app.inject({ method: 'GET', url: '/openapi.json' })).body) as Document;
      const validator = validatorFor(document);
      const credentials = await gateway.credentials();
      const problems: string[] = [];
      let probed = 0;
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          if (method === 'head' || method === 'options') continue;
          for (const probe of probes(path, method, operation, credentials, gateway.bodyLimit)) {
            const response = await app.inject({
              method: method.toUpperCase() as 'GET',
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
