import { InputError } from '@platform/errors';
import { INVALID_QUERY_MESSAGE, type QueryResult } from '@platform/notifications';

/**
 * The inbox filters as the domain reads them (lists split, ids lower-cased). The route schema has checked their
 * shape; what only the reader sees (more than 100 ids in one comma-separated value) is refused the same way.
 */
export function filtersOf<T>(result: QueryResult<T>): T {
  if (result.ok) return result.value;
  const issues = result.validations.map((v) => ({ field: v.field, code: 'invalid', message: v.detail }));
  throw new InputError('invalid_query', INVALID_QUERY_MESSAGE, { issues });
}
