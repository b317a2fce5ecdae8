import { Type, withHeaders, type HttpApp, type Static } from '@platform/http';
import { ALL_SCOPES } from '@platform/oauth';
import type { GatewayDeps } from '../deps.js';

const Url = (description: string) => Type.String({ format: 'uri', description });
const Values = (description: string) => Type.Array(Type.String(), { description });

/**
 * RFC 8414 section 2 authorization server metadata, the members this server publishes (all of them, always);
 * the order of the properties is the order of the members in the document.
 */
const AuthorizationServerMetadata = Type.Object(
  {
    issuer: Url("The issuer identifier: the API's public base URL (no query or fragment)."),
    authorization_endpoint: Url('The authorization endpoint (RFC 6749), on the web app.'),
    token_endpoint: Url('The token endpoint (RFC 6749).'),
    revocation_endpoint: Url('The revocation endpoint (RFC 7009).'),
    introspection_endpoint: Url('The introspection endpoint (RFC 7662).'),
    response_types_supported: Values('The response_type values the authorization endpoint takes.'),
    response_modes_supported: Values('The response_mode values the authorization endpoint takes.'),
    grant_types_supported: Values('The grant types the token endpoint takes.'),
    code_challenge_methods_supported: Values('The PKCE code challenge methods (RFC 7636).'),
    token_endpoint_auth_methods_supported: Values('Client authentication methods at the token endpoint.'),
    revocation_endpoint_auth_methods_supported: Values('Client authentication methods at the revocation endpoint.'),
    introspection_endpoint_auth_methods_supported: Values(
      'Client authentication methods at the introspection endpoint.',
    ),
    scopes_supported: Values('The scopes a client may ask for.'),
    authorization_response_iss_parameter_supported: Type.Boolean({
      description: 'The authorization response carries the iss parameter (RFC 9207).',
    }),
    service_documentation: Url('Human-readable documentation for developers of clients.'),
  },
  { additionalProperties: false },
);

/** RFC 8414 authorization server metadata: what client libraries discover from the issuer. */
export function metadataRoute(app: HttpApp, deps: GatewayDeps) {
  const metadata: Static<typeof AuthorizationServerMetadata> = {
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
          200: withHeaders(AuthorizationServerMetadata, { 'Cache-Control': { description: 'public, max-age=3600' } }),
        },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=3600').send(metadata),
  );
}
