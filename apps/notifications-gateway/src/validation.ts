import { InputError } from '@platform/errors';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** 400 with the standard response object: a message and the fields at fault. */
export function invalidBody(
  validations: Array<{ field: string; detail: string }>,
  message = 'Invalid request body',
): InputError {
  return new InputError('invalid_request', message, {
    issues: validations.map((v) => ({ field: v.field, code: 'invalid', message: v.detail })),
  });
}
