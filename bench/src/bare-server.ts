import Fastify from 'fastify';

/** The baseline: a bare Fastify handler that validates a JSON body and answers 201, nothing else. */
const app = Fastify({ logger: false });
app.post(
  '/user_management/users',
  { schema: { body: { type: 'object', required: ['email'], properties: { email: { type: 'string' } } } } },
  async (request, reply) => reply.code(201).send({ object: 'user', email: (request.body as { email: string }).email }),
);
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
