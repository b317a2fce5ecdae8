import type { Model, mongo } from 'mongoose';

/**
 * The stored document matching an equality filter (an `_id`, and the tenant), read by the driver: what
 * `Model.findOne(filter).lean()` gives, without the query's casting and middleware, which cost a hot read more
 * than the read itself (issue 41). For filters of plain values of the stored types (strings, not ids to cast).
 */
export function findStored<T>(
  model: Model<T>,
  filter: Record<string, string | number | boolean | null>,
): Promise<T | null> {
  return (model.collection as unknown as mongo.Collection).findOne(filter) as Promise<T | null>;
}
