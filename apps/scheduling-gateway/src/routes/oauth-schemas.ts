import { Type, ref, withHeaders } from '@platform/http';

/** RFC 6749 section 5.2 error body, on every status the OAuth endpoints answer with. */
export const OAuthErrorComponent = Type.Object(
  {
    error: Type.String({ description: 'invalid_request, invalid_client, invalid_grant, unsupported_grant_type, ...' }),
    error_description: Type.String(),
  },
  { $id: 'OAuthError', additionalProperties: false },
);

/** Every answer of the OAuth endpoints (RFC 6749 5.1): tokens and their errors are never cached. */
export const NO_STORE = { 'Cache-Control': { description: 'no-store' } };
const RETRY = { 'Retry-After': { description: 'Seconds to wait before trying again.' } };
export const oauthError = (status: number) =>
  withHeaders(ref(OAuthErrorComponent), {
    ...NO_STORE,
    ...(status === 401
      ? { 'WWW-Authenticate': { description: 'Basic realm="oauth", when the client authenticated with HTTP Basic.' } }
      : {}),
    ...(status === 429 || status >= 503 ? RETRY : {}),
  });

/** 400 bad request or grant, 401 client authentication, 415 media type, 429 too many failures, 5xx server. */
export const oauthErrorResponses = Object.fromEntries(
  [400, 401, 415, 429, 500, 503, 504].map((s) => [s, oauthError(s)]),
);

export const TokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('bearer'),
    refresh_token: Type.String(),
    expires_in: Type.Integer({ description: 'Seconds until the access token expires.' }),
    scope: Type.String({ description: 'The granted scopes, space-separated.' }),
  },
  { additionalProperties: false },
);

/** RFC 7662: `{active: false}` for anything the client may not see; the claims otherwise. */
export const IntrospectionResponse = Type.Object(
  {
    active: Type.Boolean(),
    token_type: Type.Optional(Type.Union([Type.Literal('access_token'), Type.Literal('refresh_token')])),
    scope: Type.Optional(Type.String()),
    client_id: Type.Optional(Type.String()),
    sub: Type.Optional(Type.String()),
    exp: Type.Optional(Type.Integer()),
    iat: Type.Optional(Type.Integer()),
    iss: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** RFC 7009: an empty object, also for an unknown or foreign token. */
export const RevocationResponse = Type.Object({}, { additionalProperties: false });
