import Fastify from 'fastify';

/** The ceiling of the redirect benchmark: a bare Fastify server answering 301 from an in-memory map. */
const links = new Map<string, string>();
for (let i = 0; i < 1000; i++) links.set(`h${i}`, `https://example.com/landing/${i}`);
const app = Fastify({ logger: false });
app.get('/:hash', async (request, reply) => {
  const target = links.get((request.params as { hash: string }).hash);
  if (!target) return reply.code(404).send('not found');
  return reply.code(301).header('location', target).header('cache-control', 'private, max-age=90').send();
});
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
