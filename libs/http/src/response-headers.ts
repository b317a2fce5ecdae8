import type { TSchema } from '@sinclair/typebox';

/** A response header as OpenAPI documents it. */
export interface HeaderDoc {
  description: string;
  schema?: object;
}

/**
 * A response schema with the headers its status carries, for /openapi.json. The swagger plugin reads a response
 * schema's `headers` as JSON Schemas (it moves each into the header object's `schema`, lifting `description` out),
 * so a header is given here as its schema with the description beside. The copy drops `$id`: a shape shared by
 * several statuses stays one named schema (pass `ref(component)` to point at it).
 */
export function withHeaders<T extends TSchema>(schema: T, headers: Record<string, HeaderDoc>): T {
  const { $id: _id, ...rest } = schema as T & { $id?: string };
  return { ...rest, headers: headerSchemas(headers) } as unknown as T;
}

/** Headers in the form the swagger plugin reads from a response (each its schema, the description beside). */
export function headerSchemas(headers: Record<string, HeaderDoc>): Record<string, object> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, header]) => [
      name,
      { ...(header.schema ?? { type: 'string' }), description: header.description },
    ]),
  );
}
