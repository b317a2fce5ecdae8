import type { FastifyRequest } from 'fastify';
import type { Accounts } from '@platform/accounts';
import { UnauthenticatedError } from '@platform/errors';

declare module 'fastify' {
  interface FastifyRequest {
    environmentId: string;
  }
}

const unauthorized = () =>
  new UnauthenticatedError('unauthorized', 'Missing or invalid API key. Send Authorization: Bearer <API_KEY>.');

/** `Authorization: Bearer <API_KEY>`; the key decides the environment every operation acts in. */
export function apiKeyAuth(accounts: Accounts) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw unauthorized();
    const identity = await accounts.verifyKey('usermgmt', match[1]);
    if (!identity) throw unauthorized();
    request.environmentId = identity.environmentId;
  };
}
