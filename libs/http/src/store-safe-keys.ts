import type { FieldIssue } from '@platform/errors';

const MAX_DEPTH = 32;

/**
 * The first object key in a request body that MongoDB would refuse or misread as a field path or an operator:
 * one that contains `.` or NUL, or starts with `$`. Its issue names the field by its path in the body.
 */
export function storeUnsafeKey(body: unknown): FieldIssue | undefined {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value) || depth > MAX_DEPTH) continue;
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((item, i) => [String(i), item])
      : Object.entries(value as Record<string, unknown>);
    for (const [key, inner] of entries) {
      const field = path ? `${path}.${key}` : key;
      if (!Array.isArray(value) && (key.includes('.') || key.startsWith('$') || key.includes('\u0000'))) {
        const shown = (path ? `${path}.` : '') + JSON.stringify(key);
        return {
          field: path || key,
          code: 'invalid_key',
          message: `${shown}: a key may not contain "." or NUL characters, nor start with "$"`,
        };
      }
      pending.push({ value: inner, path: field, depth: depth + 1 });
    }
  }
  return undefined;
}
