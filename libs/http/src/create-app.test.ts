import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { createHttpApp, ref } from './create-app.js';
import { withHeaders } from './response-headers.js';
import { defaultStatusFor } from './status.js';

const silent: FastifyBaseLogger = {
  level: 'silent',
  fatal: () => undefined,
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  trace: () => undefined,
  silent: () => undefined,
  child: () => silent,
};

async function app() {
  const app = await createHttpApp({
    name: 'Test API',
    logger: silent,
    renderError: (error) => ({
      statusCode: defaultStatusFor(error.kind),
      body: { code: error.code, message: error.message },
    }),
  });
  app.get('/things/:id', { schema: { params: Type.Object({ id: Type.String() }) } }, async () => ({ ok: true }));
  app.post('/things', { schema: { body: Type.Object({ name: Type.String() }) } }, async (request) => ({
    ok: true,
    members: Object.keys(request.body as object),
  }));
  await app.ready();
  return app;
}

describe('createHttpApp', () => {
  it("answers an over-long path parameter 414 in the API's shape, with the API's own framework-error headers", async () => {
    const app = await createHttpApp({
      name: 'Test API',
      logger: silent,
      renderError: (error) => ({ statusCode: defaultStatusFor(error.kind), body: { code: error.code } }),
      frameworkErrorHeaders: async (request) => ({ 'x-caller': String(request.headers['x-who'] ?? 'nobody') }),
    });
    app.get('/things/:id', async () => ({ ok: true }));
    const response = await app.inject({
      method: 'GET',
      url: `/things/${'x'.repeat(8193)}`,
      headers: { 'x-who': 'ada' },
    });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ code: 'uri_too_long' });
    expect(response.headers['x-caller']).toBe('ada');
  });

  it('answers a known path asked with another method 405, naming the methods in Allow', async () => {
    const response = await (await app()).inject({ method: 'DELETE', url: '/things/1' });
    expect(response.statusCode).toBe(405);
    expect(response.headers['allow']).toBe('GET, HEAD');
    expect(response.json()).toEqual({
      code: 'method_not_allowed',
      message: 'DELETE is not allowed here; use GET, HEAD.',
    });
  });

  it('answers a method the server does not know (QUERY) on a known path 405 too, before reading any body', async () => {
    const response = await (
      await app()
    ).inject({
      method: 'QUERY' as 'GET',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers['allow']).toBe('POST');
  });

  it('drops a __proto__ member of a JSON body instead of refusing the body, and pollutes nothing', async () => {
    const response = await (
      await app()
    ).inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"a","__proto__":{"polluted":true}}',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, members: ['name'] });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('refuses a NUL character in a path parameter with 400 naming it', async () => {
    const response = await (await app()).inject({ method: 'GET', url: '/things/a%00b' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 'invalid_params', message: 'id may not contain NUL characters' });
  });

  it('still answers an unknown path 404', async () => {
    const response = await (await app()).inject({ method: 'GET', url: '/nothing/here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['allow']).toBeUndefined();
  });

  it('answers a body in a media type the route does not take 415, text/plain included', async () => {
    const instance = await app();
    for (const type of ['text/plain', 'application/xml']) {
      const response = await instance.inject({
        method: 'POST',
        url: '/things',
        headers: { 'content-type': type },
        payload: 'name=x',
      });
      expect(response.statusCode, type).toBe(415);
      expect(response.json()).toMatchObject({ code: 'unsupported_media_type' });
    }
    const json = await instance.inject({ method: 'POST', url: '/things', payload: { name: 'x' } });
    expect(json.statusCode).toBe(200);
  });

  it('documents shared shapes once, as named components that routes reference', async () => {
    const Thing = Type.Object({ id: Type.String() }, { $id: 'Thing' });
    const instance = await createHttpApp({
      name: 'Test API',
      logger: silent,
      renderError: (error) => ({ statusCode: defaultStatusFor(error.kind), body: { code: error.code } }),
      components: [Thing],
    });
    instance.get('/things/:id', { schema: { response: { 200: ref(Thing) } } }, async () => ({
      id: 'a',
      extra: 'dropped',
    }));
    await instance.ready();
    const document = (await instance.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.components.schemas.Thing).toMatchObject({ type: 'object', properties: { id: { type: 'string' } } });
    expect(JSON.stringify(document.paths['/things/{id}'].get.responses['200'])).toContain(
      '"$ref":"#/components/schemas/Thing"',
    );
    // The reference serializes as the shape does: members it does not name are left out.
    expect((await instance.inject({ method: 'GET', url: '/things/a' })).json()).toEqual({ id: 'a' });
  });

  it('documents the headers of a status as OpenAPI header objects beside a referenced body', async () => {
    const Problem = Type.Object({ code: Type.String() }, { $id: 'Problem' });
    const instance = await createHttpApp({
      name: 'Test API',
      logger: silent,
      renderError: (error) => ({ statusCode: defaultStatusFor(error.kind), body: { code: error.code } }),
      components: [Problem],
    });
    const retry = { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } };
    instance.get('/busy', { schema: { response: { 503: withHeaders(ref(Problem), retry) } } }, async (_r, reply) =>
      reply.code(503).header('retry-after', '5').send({ code: 'busy' }),
    );
    await instance.ready();
    const document = (await instance.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.paths['/busy'].get.responses['503']).toMatchObject({
      headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Problem' } } },
    });
    expect(document.paths['/busy'].get.responses['503'].headers['Retry-After'].schema).toEqual({ type: 'integer' });
  });
});
