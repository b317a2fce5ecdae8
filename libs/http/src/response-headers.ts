import type { TSchema } from '@sinclair/typebox';

/** A response header as OpenAPI documents it. */
export interface HeaderDoc {
  description: string;
  schema?: object;
}

/**
 * A response schema with the headers its status carries, for /openapi.json (the swagger plugin reads a response
 * schema's `headers`). The copy drops `$id`: a shape shared by several statuses stays one named schema.
 */
export function withHeaders<T extends TSchema>(schema: T, headers: Record<string, HeaderDoc>): T {
  const { $id: _id, ...rest } = schema as T & { $id?: string };
  const documented = Object.fromEntries(
    Object.entries(headers).map(([name, header]) => [name, { schema: { type: 'string' }, ...header }]),
  );
  return { ...rest, headers: documented } as unknown as T;
}
