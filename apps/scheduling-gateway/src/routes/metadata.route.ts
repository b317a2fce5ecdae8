import { Type, withHeaders, type HttpApp } from '@platform/http';
import { ALL_SCOPES } from '@platform/oauth';
import type { GatewayDeps } from '../deps.js';

/** RFC 8414 authorization server metadata: what client libraries discover from the issuer. */
export function metadataRoute(app: HttpApp, deps: GatewayDeps) {
  const metadata = {
    issuer: deps.issuer,
    authorization_endpoint: `${deps.webUrl}/auth/oauth2/authorize`,
    token_endpoint: `${deps.issuer}/v2/auth/oauth2/token`,
    revocation_endpoint: `${deps.issuer}/v2/auth/oauth2/revoke`,
    introspection_endpoint: `${deps.issuer}/v2/auth/oauth2/introspect`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    scopes_supported: [...ALL_SCOPES],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${deps.webUrl}/settings/developer/oauth`,
  };
  app.get(
    '/.well-known/oauth-authorization-server',
    {
      schema: {
        summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        tags: ['oauth'],
        response: {
          200: withHeaders(
            Type.Object(Object.fromEntries(Object.entries(metadata).map(([k, v]) => [k, describe(v)]))),
            { 'Cache-Control': { description: 'public, max-age=3600' } },
          ),
        },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=3600').send(metadata),
  );
}

function describe(value: string | boolean | string[]) {
  if (Array.isArray(value)) return Type.Array(Type.String());
  return typeof value === 'boolean' ? Type.Boolean() : Type.String();
}
