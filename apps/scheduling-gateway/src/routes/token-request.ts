import { InputError, UnauthenticatedError } from '@platform/errors';
import { Type, type FastifyRequest } from '@platform/http';

/** Longest accepted value per parameter: anything longer is refused before any lookup. */
const MAX_LENGTH = {
  grant_type: 64,
  client_id: 200,
  client_secret: 512,
  code: 512,
  redirect_uri: 2048,
  code_verifier: 128,
  refresh_token: 512,
  token: 4096,
  token_type_hint: 64,
  scope: 2048,
} as const;

type Param = keyof typeof MAX_LENGTH;
export type TokenParams = Partial<Record<Param, string>>;

/**
 * The body of a token, revocation or introspection request, as a form or as JSON: each parameter it names a
 * single string within its length limit (RFC 6749 3.2: parameters must not repeat; a repeated form field
 * arrives as a list and is refused), unknown parameters ignored (RFC 6749 3.1).
 */
export function tokenRequestBody(names: readonly Param[], description: string) {
  const schema = Type.Object(
    Object.fromEntries(names.map((name) => [name, Type.Optional(Type.String({ maxLength: MAX_LENGTH[name] }))])),
    { description },
  );
  return {
    content: {
      'application/x-www-form-urlencoded': { schema },
      'application/json': { schema },
    },
  };
}

/** The parameters a request sent (empty values are as absent), once its route schema has checked them. */
export function readParams(request: FastifyRequest): TokenParams {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const params: TokenParams = {};
  for (const name of Object.keys(MAX_LENGTH) as Param[]) {
    const value = body[name];
    if (typeof value === 'string' && value.length > 0) params[name] = value;
  }
  return params;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string | null;
}

/**
 * client_secret_basic (RFC 6749 2.3.1, form-encoded id and secret in Basic auth) or client_secret_post or
 * none (public clients): exactly one method per request.
 */
export function readClientCredentials(request: FastifyRequest, params: TokenParams): ClientCredentials {
  const header = request.headers.authorization;
  if (header && /^basic /i.test(header)) {
    if (params.client_secret)
      throw new InputError(
        'invalid_request',
        'Use one client authentication method: Basic or client_secret, not both.',
      );
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new UnauthenticatedError('invalid_client', 'Malformed Basic client credentials.');
    let id: string;
    let secret: string;
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw new UnauthenticatedError('invalid_client', 'Malformed Basic client credentials.');
    }
    if (id.length === 0 || id.length > MAX_LENGTH.client_id || secret.length > MAX_LENGTH.client_secret) {
      throw new UnauthenticatedError('invalid_client', 'Malformed Basic client credentials.');
    }
    if (params.client_id && params.client_id !== id)
      throw new InputError('invalid_request', 'client_id differs from the Basic credentials.');
    return { clientId: id, clientSecret: secret || null };
  }
  if (!params.client_id) throw new InputError('invalid_request', 'client_id is required.');
  return { clientId: params.client_id, clientSecret: params.client_secret ?? null };
}

export function required(params: TokenParams, name: Param): string {
  const value = params[name];
  if (!value) throw new InputError('invalid_request', `${name} is required.`);
  return value;
}
