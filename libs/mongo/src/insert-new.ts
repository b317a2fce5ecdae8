import type { mongo } from 'mongoose';
import { isDuplicateKeyError } from './errors.js';

/** One document's failure in a multi-document write, as the driver reports it. */
export interface WriteErrorOf {
  index: number;
  code?: number;
  errmsg?: string;
}

/**
 * The per-document failures of a multi-document write (a bulk write error's `writeErrors`, one or several),
 * or undefined when the error is not one: the whole command failed.
 */
export function writeErrorsOf(error: unknown): WriteErrorOf[] | undefined {
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  if (writeErrors === undefined || writeErrors === null) return undefined;
  return (Array.isArray(writeErrors) ? writeErrors : [writeErrors]) as WriteErrorOf[];
}

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
    const list = writeErrorsOf(error);
    if (!list) throw error;
    if (!list.every((e) => isDuplicateKeyError({ code: e.code, message: e.errmsg }))) throw error;
    for (const e of list) taken.add(e.index);
  }
  return taken;
}
