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
const PATH = /^[A-Za-z_][A-Za-z0-9_.-]*/;

/** One side of `||`: a placeholder's value, or a string literal in single or double quotes. */
type Operand = { kind: 'path'; name: string } | { kind: 'literal'; value: string };

/** `{{ a || b || 'literal' }}`: the first operand with a value (not null, not empty) is used. */
interface Placeholder {
  operands: Operand[];
  /** Inside a JSON string: the value's text is spliced in; elsewhere the value is a JSON value. */
  inString: boolean;
}

/** What a template is rendered for. */
export interface JwtTemplateContext {
  environment: { id: string };
  user: {
    id: string;
    email: string;
    email_verified: boolean;
    first_name: string | null;
    last_name: string | null;
    external_id: string | null;
    metadata: Record<string, string>;
  };
  organization: { id: string; name: string } | null;
}

/** "line L, column C" of an offset (both from 1), for errors a person can find in their editor. */
function where(content: string, offset: number): string {
  const before = content.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

function fail(message: string): never {
  throw new InputError('invalid_jwt_template', message, {
    issues: [{ field: 'content', code: 'invalid_jwt_template', message }],
  });
}

/** The operands of the expression between `{{` and `}}` (`at`: where the expression starts in the content). */
function parseExpression(content: string, expression: string, at: number): Operand[] {
  const operands: Operand[] = [];
  let i = 0;
  const skipSpace = () => {
    while (i < expression.length && /\s/.test(expression[i]!)) i++;
  };
  for (;;) {
    skipSpace();
    const ch = expression[i];
    if (ch === "'" || ch === '"') {
      const close = expression.indexOf(ch, i + 1);
      if (close === -1) fail(`content has an unclosed string literal at ${where(content, at + i)}`);
      operands.push({ kind: 'literal', value: expression.slice(i + 1, close) });
      i = close + 1;
    } else {
      const name = PATH.exec(expression.slice(i))?.[0];
      if (!name) fail(`content expects a placeholder or a quoted string at ${where(content, at + i)}`);
      if (!known.has(name) && !METADATA.test(name))
        fail(`content uses an unknown placeholder {{${name}}} at ${where(content, at + i)}`);
      operands.push({ kind: 'path', name });
      i += name.length;
    }
    skipSpace();
    if (i >= expression.length) return operands;
    if (expression.startsWith('||', i)) {
      i += 2;
      continue;
    }
    fail(`content expects || or }} at ${where(content, at + i)}`);
  }
}

/** The end of the expression that starts at `from` (the `}}` outside any string literal), or -1. */
function closingBraces(content: string, from: number): number {
  let quote: string | null = null;
  for (let i = from; i < content.length - 1; i++) {
    const ch = content[i]!;
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '}' && content[i + 1] === '}') return i;
  }
  return -1;
}

interface Parsed {
  /** The JSON text between placeholders, and the placeholders, in order. */
  parts: Array<string | Placeholder>;
  /** For each character of the JSON skeleton (placeholders filled with null or nothing), its offset in the content. */
  offsets: number[];
  skeleton: string;
}

/** WorkOS's template grammar: JSON, with `{{ expression }}` where a value or a string's text stands. */
function parseTemplate(content: string): Parsed {
  if (content.length > JWT_TEMPLATE_MAX_LENGTH) fail(`content must be at most ${JWT_TEMPLATE_MAX_LENGTH} characters`);
  const parts: Array<string | Placeholder> = [];
  const offsets: number[] = [];
  let skeleton = '';
  let text = '';
  let inString = false;
  for (let i = 0; i < content.length; i++) {
    const ch = content[i]!;
    if (ch === '{' && content[i + 1] === '{') {
      const end = closingBraces(content, i + 2);
      if (end === -1) fail(`content has an unclosed {{ placeholder at ${where(content, i)}`);
      const operands = parseExpression(content, content.slice(i + 2, end), i + 2);
      parts.push(text, { operands, inString });
      text = '';
      if (!inString) {
        skeleton += 'null';
        offsets.push(i, i, i, i);
      }
      i = end + 1;
      continue;
    }
    if (inString && ch === '\\') {
      text += ch + (content[i + 1] ?? '');
      skeleton += ch + (content[i + 1] ?? '');
      offsets.push(i, i + 1);
      i++;
      continue;
    }
    if (ch === '"') inString = !inString;
    text += ch;
    skeleton += ch;
    offsets.push(i);
  }
  parts.push(text);
  return { parts, offsets, skeleton };
}

/** JSON.parse, its error placed in the template's own lines and columns. */
function parseJson(content: string, parsed: Parsed): unknown {
  try {
    return JSON.parse(parsed.skeleton) as unknown;
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    const offset = at === undefined ? content.length : (parsed.offsets[Number(at)] ?? content.length);
    return fail(
      `content must be valid JSON once placeholders are filled in: the error is at ${where(content, offset)}`,
    );
  }
}

function assertClaims(value: unknown): asserts value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('content must be a JSON object');
  const reserved = Object.keys(value).filter((k) => RESERVED_CLAIMS.includes(k));
  if (reserved.length > 0) fail(`content may not set reserved claims: ${reserved.join(', ')}`);
}

/**
 * Valid when the text is a JSON object once each `{{ expression }}` is replaced: by nothing inside a JSON string,
 * by `null` where a value stands. Every placeholder must be a known one; errors name their line and column.
 */
export function validateJwtTemplate(content: string): void {
  const parsed = parseTemplate(content);
  assertClaims(parseJson(content, parsed));
}

function valueOf(name: string, context: JwtTemplateContext): unknown {
  if (name.startsWith('user.metadata.')) return context.user.metadata[name.slice('user.metadata.'.length)];
  const [scope, field] = name.split('.') as [string, string];
  if (scope === 'environment') return field === 'id' ? context.environment.id : undefined;
  if (scope === 'organization') return context.organization?.[field as 'id' | 'name'];
  return context.user[field as keyof JwtTemplateContext['user']];
}

/** The claims a template gives for a user: each expression's first operand with a value, or null. */
export function renderJwtTemplate(content: string, context: JwtTemplateContext): Record<string, unknown> {
  const parsed = parseTemplate(content);
  // A draft is checked like a saved template first: its errors are the template's (422), with line and column.
  assertClaims(parseJson(content, parsed));
  const { parts } = parsed;
  let json = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      json += part;
      continue;
    }
    let value: unknown = null;
    for (const operand of part.operands) {
      const candidate = operand.kind === 'literal' ? operand.value : valueOf(operand.name, context);
      if (candidate !== undefined && candidate !== null && candidate !== '') {
        value = candidate;
        break;
      }
    }
    json += part.inString ? (value === null ? '' : JSON.stringify(String(value)).slice(1, -1)) : JSON.stringify(value);
  }
  const claims = JSON.parse(json) as unknown;
  assertClaims(claims);
  return claims;
}
