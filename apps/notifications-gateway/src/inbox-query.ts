import { InputError } from '@platform/errors';
import { INVALID_QUERY_MESSAGE, listsOverLimit, type InboxFilterParams } from '@platform/notifications';

/**
 * After the route schema, which judges the query: the one rule it cannot state (more than 100 ids summed over a
 * repeated `targets` or `templates`), refused in the same 400 as the schema's refusals.
 */
export function refuseListsOverLimit(params: InboxFilterParams): void {
  const validations = listsOverLimit(params);
  if (validations.length === 0) return;
  const issues = validations.map((v) => ({ field: v.field, code: 'invalid', message: v.detail }));
  throw new InputError('invalid_query', INVALID_QUERY_MESSAGE, { issues });
}
