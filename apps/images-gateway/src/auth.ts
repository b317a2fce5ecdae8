import type { FastifyRequest } from 'fastify';
import type { Accounts } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';

declare module 'fastify' {
  interface FastifyRequest {
    accountId: string | undefined;
  }
}

const unauthorized = () => new UnauthenticatedError('unauthorized', 'Credentials are invalid.');

/** HTTP Basic with the literal user name `api` and the account's API key as the password. */
export function basicAuth(accounts: Accounts) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const encoded = header ? /^Basic\s+([A-Za-z0-9+/=]{1,400})\s*$/i.exec(header)?.[1] : undefined;
    if (!encoded) throw unauthorized();
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0 || decoded.slice(0, colon) !== 'api') throw unauthorized();
    const identity = await accounts.verifyKey('images', decoded.slice(colon + 1));
    if (!identity) throw unauthorized();
    request.accountId = identity.environmentId;
  };
}
