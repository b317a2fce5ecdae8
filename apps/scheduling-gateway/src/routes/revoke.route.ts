import { MessageTypeNames } from '@platform/contracts';
import { isPlatformError } from '@platform/errors';
import { withHeaders, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../deps.js';
import { NO_STORE, RevocationResponse, oauthErrorResponses } from './oauth-schemas.js';
import { readClientCredentials, readParams, required, tokenRequestBody } from './token-request.js';

/** RFC 7009. Revoking a refresh or an access token revokes its grant (every token of that authorization). */
export function revokeRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/v2/auth/oauth2/revoke',
    {
      schema: {
        summary: 'Revoke a token (RFC 7009)',
        tags: ['oauth'],
        body: tokenRequestBody(
          ['token', 'token_type_hint', 'client_id', 'client_secret'],
          'The token to revoke and the client (client_secret here or in HTTP Basic).',
        ),
        response: { 200: withHeaders(RevocationResponse, NO_STORE), ...oauthErrorResponses },
      },
    },
    async (request, reply) => {
      const params = readParams(request);
      const credentials = readClientCredentials(request, params);
      const token = required(params, 'token');
      await deps.failures.check(request.ip, credentials.clientId);
      const access = deps.accessTokens.verify(token);
      try {
        await deps.commands.send(MessageTypeNames.RevokeGrant, credentials.clientId, {
          client_id: credentials.clientId,
          client_secret_hash:
            credentials.clientSecret === null ? null : deps.credentials.hashClientSecret(credentials.clientSecret),
          refresh_token_hash: access ? null : deps.credentials.hashRefreshToken(token),
          grant_id: access ? access.gid : null,
          reason: 'revoked by the client',
        });
      } catch (error) {
        if (isPlatformError(error) && error.code === 'invalid_client')
          await deps.failures.recordFailure(request.ip, credentials.clientId);
        throw error;
      }
      // An unknown or foreign token is not an error (RFC 7009 2.2).
      return reply.code(200).header('cache-control', 'no-store').send({});
    },
  );
}
