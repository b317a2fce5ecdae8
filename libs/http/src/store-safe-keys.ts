import type { FieldIssue } from '@platform/errors';

const MAX_DEPTH = 32;

type Schema = Record<string, unknown>;

/**
 * The keys the store can hold, as a JSON Schema `pattern`: not empty, no `.` or NUL, not starting with `$`. A map
 * whose keys clients choose says so in its `propertyNames`, so that the document tells clients and fuzzers.
 */
export const STORE_SAFE_KEY = '^[^$.\\u0000][^.\\u0000]*$';

/** A key MongoDB would refuse or misread as a field path or an operator (FerretDB refuses an empty one too). */
const unsafe = (key: string) => key === '' || key.includes('.') || key.startsWith('$') || key.includes('\u0000');

function issueAt(path: string, key: string): FieldIssue {
  const shown = (path ? `${path}.` : '') + JSON.stringify(key);
  return {
    field: path || key,
    code: 'invalid_key',
    message: `${shown}: a key may not be empty, contain "." or NUL characters, nor start with "$"`,
  };
}

/**
 * The first object key in a request body that would become a field name in the store and that MongoDB would
 * refuse or misread: one that is empty, contains `.` or NUL, or starts with `$`; or a string with NUL in it. With the body's schema, only
 * the keys a client chooses (maps: `patternProperties`, an `additionalProperties` schema) are looked at; members
 * the schema does not name are ignored by the handlers and never stored, so they are not judged. Without a
 * schema every key is. `resolve` turns a `$ref` into its schema. Its issue names the field by its path.
 */
export function storeUnsafeKey(
  body: unknown,
  schema?: unknown,
  resolve: (ref: string) => unknown = () => undefined,
): FieldIssue | undefined {
  const deref = (s: unknown): Schema | undefined => {
    let current = s as Schema | undefined;
    for (let i = 0; i < 8 && typeof current?.['$ref'] === 'string'; i++)
      current = resolve((current['$ref'] as string).replace(/#$/, '')) as Schema | undefined;
    return current;
  };
  return walk(body, schema === undefined ? undefined : deref(schema), '', 0, deref);
}

function walk(
  value: unknown,
  schema: Schema | undefined,
  path: string,
  depth: number,
  deref: (s: unknown) => Schema | undefined,
): FieldIssue | undefined {
  // PostgreSQL (under FerretDB) holds no U+0000 in text: such a value would fail in the worker, retried and
  // dead-lettered, where a 400 at the edge tells the client.
  if (typeof value === 'string')
    return value.includes('\u0000')
      ? {
          field: path || 'body',
          code: 'invalid_character',
          message: `${path || 'body'} may not contain NUL characters`,
        }
      : undefined;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > MAX_DEPTH) return undefined;
  const branches = schema
    ? ((schema['anyOf'] ?? schema['oneOf'] ?? schema['allOf']) as unknown[] | undefined)
    : undefined;
  if (branches) {
    for (const branch of branches) {
      const issue = walk(value, deref(branch), path, depth, deref);
      if (issue) return issue;
    }
    return undefined;
  }
  if (Array.isArray(value)) {
    const items = schema ? deref(schema['items']) : undefined;
    for (const [i, item] of value.entries()) {
      if (schema && !items) continue;
      const issue = walk(item, items, path ? `${path}.${i}` : String(i), depth + 1, deref);
      if (issue) return issue;
    }
    return undefined;
  }
  const properties = (schema?.['properties'] ?? {}) as Record<string, unknown>;
  const patterns = Object.values((schema?.['patternProperties'] ?? {}) as Record<string, unknown>);
  const additional = schema?.['additionalProperties'];
  const open = patterns[0] ?? (typeof additional === 'object' ? additional : undefined);
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const declared = schema ? (Object.hasOwn(properties, key) ? properties[key] : undefined) : undefined;
    if (schema && declared === undefined && open === undefined) continue; // not stored: not judged
    if (declared === undefined && unsafe(key)) return issueAt(path, key);
    const issue = walk(
      inner,
      schema ? deref(declared ?? open) : undefined,
      path ? `${path}.${key}` : key,
      depth + 1,
      deref,
    );
    if (issue) return issue;
  }
  return undefined;
}
