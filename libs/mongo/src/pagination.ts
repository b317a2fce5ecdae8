import { InputError } from '@platform/errors';

export interface PageRequest {
  limit?: number | undefined;
  before?: string | undefined;
  after?: string | undefined;
  order?: 'asc' | 'desc' | undefined;
}

export interface Page<T> {
  data: T[];
  list_metadata: { before: string | null; after: string | null };
}

/** Cursor pagination over time-ordered ids, as the real API does it: `before`/`after` are object ids. */
export async function paginate<D extends { _id: string }, T>(
  request: PageRequest,
  fetch: (filter: Record<string, unknown>, sort: 1 | -1, limit: number) => Promise<D[]>,
  present: (doc: D) => T,
): Promise<Page<T>> {
  const limit = request.limit ?? 10;
  const order = request.order ?? 'desc';
  if (request.before && request.after) {
    throw new InputError('invalid_request_parameters', 'Provide either before or after, not both', {
      issues: [{ field: 'before', code: 'invalid_cursor', message: 'before and after are mutually exclusive' }],
    });
  }
  const forward = order === 'desc' ? -1 : 1;
  // Paging backwards (`before`) reads in the opposite direction, then restores the requested order.
  const backwards = Boolean(request.before);
  const sort = (backwards ? -forward : forward) as 1 | -1;
  const cursor = request.before ?? request.after;
  const filter: Record<string, unknown> = {};
  if (cursor) filter['_id'] = sort === 1 ? { $gt: cursor } : { $lt: cursor };
  const docs = await fetch(filter, sort, limit + 1);
  const hasMore = docs.length > limit;
  const page = docs.slice(0, limit);
  if (backwards) page.reverse();
  const first = page[0]?._id ?? null;
  const last = page.at(-1)?._id ?? null;
  return {
    data: page.map(present),
    list_metadata: backwards
      ? { before: hasMore ? first : null, after: last }
      : { before: cursor ? first : null, after: hasMore ? last : null },
  };
}
