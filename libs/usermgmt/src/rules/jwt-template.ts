import { InputError } from '@platform/errors';

/**
 * Placeholders a JWT template may use. They name the environment (the service) and the user the token is
 * minted for; `user.metadata.<key>` reads one metadata value.
 */
export const JWT_TEMPLATE_PLACEHOLDERS = [
  'environment.id',
  'user.id',
  'user.email',
  'user.email_verified',
  'user.first_name',
  'user.last_name',
  'user.external_id',
  'organization.id',
  'organization.name',
] as const;

/** Claims the platform sets itself; a template may not override them. */
export const RESERVED_CLAIMS = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'sid',
  'org_id',
  'role',
  'permissions',
];

export const JWT_TEMPLATE_MAX_LENGTH = 10_000;

const known = new Set<string>(JWT_TEMPLATE_PLACEHOLDERS);
const METADATA = /^user\.metadata\.[A-Za-z0-9_-]{1,40}$/;

function fail(message: string): never {
  throw new InputError('invalid_jwt_template', message, {
    issues: [{ field: 'content', code: 'invalid_jwt_template', message }],
  });
}

/**
 * Valid when the text is a JSON object once each `{{placeholder}}` is replaced: by nothing inside a
 * JSON string, by `null` where a value stands. Every placeholder must be a known one.
 */
export function validateJwtTemplate(content: string): void {
  if (content.length > JWT_TEMPLATE_MAX_LENGTH) fail(`content must be at most ${JWT_TEMPLATE_MAX_LENGTH} characters`);
  let json = '';
  let inString = false;
  for (let i = 0; i < content.length; i++) {
    const ch = content[i]!;
    if (ch === '{' && content[i + 1] === '{') {
      const end = content.indexOf('}}', i + 2);
      if (end === -1) fail('content has an unclosed {{ placeholder');
      const name = content.slice(i + 2, end).trim();
      if (!known.has(name) && !METADATA.test(name)) fail(`content uses an unknown placeholder {{${name}}}`);
      json += inString ? '' : 'null';
      i = end + 1;
      continue;
    }
    if (inString && ch === '\\') {
      json += ch + (content[i + 1] ?? '');
      i++;
      continue;
    }
    if (ch === '"') inString = !inString;
    json += ch;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    fail('content must be valid JSON once placeholders are filled in');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail('content must be a JSON object');
  const reserved = Object.keys(parsed).filter((k) => RESERVED_CLAIMS.includes(k));
  if (reserved.length > 0) fail(`content may not set reserved claims: ${reserved.join(', ')}`);
}
