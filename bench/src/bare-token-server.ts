import { createHmac, randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';

/**
 * The baseline of the token benchmark: a bare Fastify handler that parses the same form and only signs a
 * token (one HMAC-SHA256) - no client authentication, no store, no broker.
 */
const key = randomBytes(32);
const app = Fastify({ logger: false });
await app.register(formbody);
app.post('/v2/auth/oauth2/token', async (request, reply) => {
  const body = request.body as Record<string, string>;
  const claims = Buffer.from(
    JSON.stringify({ cid: body['client_id'], exp: Math.floor(Date.now() / 1000) + 1800 }),
  ).toString('base64url');
  const token = `${claims}.${createHmac('sha256', key).update(claims).digest('base64url')}`;
  return reply.header('cache-control', 'no-store').send({
    access_token: token,
    token_type: 'bearer',
    refresh_token: randomBytes(36).toString('base64url'),
    expires_in: 1800,
    scope: 'BOOKING_READ',
  });
});
await app.listen({ port: Number(process.env['PORT']), host: '127.0.0.1' });
