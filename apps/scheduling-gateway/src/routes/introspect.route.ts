import { isPlatformError } from '@platform/errors';
import { withHeaders, type HttpApp } from '@platform/http';
import { authenticateClient } from '@platform/oauth';
import type { GatewayDeps } from '../deps.js';
import { NO_STORE, IntrospectionResponse, oauthErrorResponses } from './oauth-schemas.js';
import { readClientCredentials, readParams, required, tokenRequestBody } from './token-request.js';

/**
 * RFC 7662 for the client itself: a client may introspect only tokens issued to it; anything else (unknown,
 * expired, revoked, another client's) is `{active: false}`. A read: no command, no state change.
 */
export function introspectRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/v2/auth/oauth2/introspect',
    {
      schema: {
        summary: 'Introspect a token (RFC 7662)',
        tags: ['oauth'],
        body: tokenRequestBody(
          ['token', 'token_type_hint', 'client_id', 'client_secret'],
          'The token to introspect and the client (client_secret here or in HTTP Basic).',
        ),
        response: { 200: withHeaders(IntrospectionResponse, NO_STORE), ...oauthErrorResponses },
      },
    },
    async (request, reply) => {
      const params = readParams(request);
      const credentials = readClientCredentials(request, params);
      const token = required(params, 'token');
      await deps.failures.check(request.ip, credentials.clientId);
      let client;
      try {
        const secretHash =
          credentials.clientSecret === null ? null : deps.credentials.hashClientSecret(credentials.clientSecret);
        client = authenticateClient(await deps.store.getClient(credentials.clientId), secretHash, 'introspect');
      } catch (error) {
        if (isPlatformError(error) && error.code === 'invalid_client')
          await deps.failures.recordFailure(request.ip, credentials.clientId);
        throw error;
      }
      reply.header('cache-control', 'no-store');
      const inactive = { active: false };

      const access = deps.accessTokens.verify(token);
      if (access) {
        if (access.cid !== client._id || deps.bearer.isRevoked(access.gid)) return inactive;
        return {
          active: true,
          token_type: 'access_token' as const,
          scope: access.scp.join(' '),
          client_id: access.cid,
          sub: access.sub,
          exp: access.exp,
          iss: deps.issuer,
        };
      }
      const refresh = await deps.store.getRefreshToken(deps.credentials.hashRefreshToken(token));
      if (!refresh || refresh.client_id !== client._id || refresh.used_at || refresh.expires_at.getTime() <= Date.now())
        return inactive;
      const grant = await deps.store.getGrant(refresh.grant_id);
      if (!grant || grant.revoked_at) return inactive;
      return {
        active: true,
        token_type: 'refresh_token' as const,
        scope: grant.scopes.join(' '),
        client_id: grant.client_id,
        sub: grant.user_id,
        exp: Math.floor(refresh.expires_at.getTime() / 1000),
        iat: Math.floor(refresh.created_at.getTime() / 1000),
        iss: deps.issuer,
      };
    },
  );
}
