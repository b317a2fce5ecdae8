import type { mongo } from 'mongoose';
import { isDuplicateKeyError } from './errors.js';

/**
 * Inserts documents in one unordered round trip and returns the positions of those whose `_id` (or another
 * unique key) was already taken: those were not inserted, every other one was. Any other failure is thrown.
 */
export async function insertNew<T extends mongo.Document>(
  collection: mongo.Collection<T>,
  docs: mongo.OptionalUnlessRequiredId<T>[],
): Promise<Set<number>> {
  const taken = new Set<number>();
  if (docs.length === 0) return taken;
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (error) {
    const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
    if (writeErrors === undefined || writeErrors === null) throw error;
    const list = (Array.isArray(writeErrors) ? writeErrors : [writeErrors]) as Array<{
      index: number;
      code?: number;
      errmsg?: string;
    }>;
    if (!list.every((e) => isDuplicateKeyError({ code: e.code, message: e.errmsg }))) throw error;
    for (const e of list) taken.add(e.index);
  }
  return taken;
}
