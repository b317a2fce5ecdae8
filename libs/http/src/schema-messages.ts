import type { FieldIssue } from '@platform/errors';

/** One Ajv error, with `parentSchema` (Ajv's `verbose` option) where the validator was built to keep it. */
export interface SchemaIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: unknown;
  message?: string | undefined;
  parentSchema?: unknown;
}

const quoteList = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The literal values a union of constants (TypeBox's `Type.Union([Type.Literal(...)])`) allows, if it is one. */
function literalsOf(schema: unknown): unknown[] | undefined {
  const branches =
    (schema as { anyOf?: unknown[]; oneOf?: unknown[] } | undefined)?.anyOf ??
    (schema as { oneOf?: unknown[] } | undefined)?.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const values = branches.map((b) =>
    b && typeof b === 'object' && 'const' in b ? (b as { const: unknown }).const : undefined,
  );
  return values.every((v) => v !== undefined) ? values : undefined;
}

/** What the value must be, in words, for each keyword a route schema uses. */
function requirement(v: SchemaIssue): string {
  const p = v.params as Record<string, unknown>;
  switch (v.keyword) {
    case 'type':
      return `must be ${String(p['type'])
        .replace(/^(integer|object|array|string|number|boolean|null)$/, (t) =>
          t === 'integer' || t === 'object' || t === 'array' ? `an ${t}` : `a ${t}`,
        )
        .replace(',', ' or ')}`;
    case 'minLength':
      return p['limit'] === 1
        ? 'must not be empty'
        : `must be at least ${plural(Number(p['limit']), 'character')} long`;
    case 'maxLength':
      return `must be at most ${plural(Number(p['limit']), 'character')} long`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `must be ${v.keyword === 'minimum' ? 'at least' : 'greater than'} ${String(p['limit'])}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `must be ${v.keyword === 'maximum' ? 'at most' : 'less than'} ${String(p['limit'])}`;
    case 'minItems':
      return `must have at least ${plural(Number(p['limit']), 'item')}`;
    case 'maxItems':
      return `must have at most ${plural(Number(p['limit']), 'item')}`;
    case 'minProperties':
      return `must have at least ${plural(Number(p['limit']), 'member')}`;
    case 'maxProperties':
      return `must have at most ${plural(Number(p['limit']), 'member')}`;
    case 'uniqueItems':
      return 'must not repeat an item';
    case 'format':
      return `must be a valid ${String(p['format'])}`;
    case 'pattern':
      return `must match the pattern ${String(p['pattern'])}`;
    case 'enum':
      return `must be one of ${quoteList(p['allowedValues'] as unknown[])}`;
    case 'const':
      return `must be ${JSON.stringify(p['allowedValue'])}`;
    case 'anyOf':
    case 'oneOf': {
      const literals = literalsOf(v.parentSchema);
      return literals ? `must be one of ${quoteList(literals)}` : 'does not match any allowed form';
    }
    case 'propertyNames':
      return `has a member name that is not allowed: ${JSON.stringify(p['propertyName'])}`;
    case 'discriminator': {
      const branches = ((v.parentSchema as { oneOf?: unknown[] } | undefined)?.oneOf ?? []) as Array<{
        properties?: Record<string, { const?: unknown }>;
      }>;
      const tag = String(p['tag']);
      const values = branches.map((b) => b.properties?.[tag]?.const).filter((c) => c !== undefined);
      return `must have ${tag} set to one of ${quoteList(values)}`;
    }
    case 'multipleOf':
      return `must be a multiple of ${String(p['multipleOf'])}`;
    default:
      return 'is invalid';
  }
}

/** An Ajv error as a field issue: the field's path in the part validated, a stable code and a sentence. */
export function describeIssue(v: SchemaIssue, context: string): FieldIssue {
  const p = v.params as Record<string, unknown>;
  const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~');
  const missing = typeof p['missingProperty'] === 'string' ? p['missingProperty'] : undefined;
  const extra = typeof p['additionalProperty'] === 'string' ? p['additionalProperty'] : undefined;
  const field = [path, missing ?? extra].filter(Boolean).join('.') || context;
  if (missing !== undefined) return { field, code: `${field}_required`, message: `${field} is required` };
  // A schema's `errorMessage` is one sentence for all its keywords, or one per keyword (ajv-errors' two forms).
  const given = (v.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
  const own = typeof given === 'object' && given !== null ? (given as Record<string, unknown>)[v.keyword] : given;
  if (extra !== undefined)
    return {
      field,
      code: 'unknown_field',
      message: `${field} ${typeof own === 'string' ? own : 'is not a known field'}`,
    };
  const message = typeof own === 'string' ? `${field} ${own}` : `${field} ${requirement(v)}`;
  return { field, code: v.keyword === 'propertyNames' ? 'invalid_key' : `invalid_${v.keyword}`, message };
}
