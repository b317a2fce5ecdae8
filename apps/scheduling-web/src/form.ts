/** Parsed form bodies and query strings: values are strings, or arrays when a name was repeated. */
export type Fields = Record<string, unknown>;

export function fieldsOf(source: unknown): Fields {
  return typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as Fields) : {};
}

/** A single text value ('' when absent or repeated), cut to `max` characters. */
export function textField(fields: Fields, name: string, max = 10_000): string {
  const value = fields[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** Every value given for a repeatable field such as checkboxes. */
export function listField(fields: Fields, name: string): string[] {
  const value = fields[name];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}
