import type { FastifyRequest } from 'fastify';
import type { Accounts } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';

declare module 'fastify' {
  interface FastifyRequest {
    accountId: string | undefined;
  }
}

const unauthorized = () => new UnauthenticatedError('unauthorized', 'Credentials are invalid.');

/** The account of an HTTP Basic header with the literal user name `api` and the API key as the password. */
export async function accountOf(accounts: Accounts, header: string | undefined): Promise<string | undefined> {
  const encoded = header ? /^Basic\s+([A-Za-z0-9+/=]{1,400})\s*$/i.exec(header)?.[1] : undefined;
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(0, colon) !== 'api') return undefined;
  const identity = await accounts.verifyKey('images', decoded.slice(colon + 1));
  return identity?.environmentId;
}

export function basicAuth(accounts: Accounts) {
  return async (request: FastifyRequest) => {
    const accountId = await accountOf(accounts, request.headers.authorization);
    if (!accountId) throw unauthorized();
    request.accountId = accountId;
  };
}
