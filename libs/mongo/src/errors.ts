import { isUniqueKeyViolation } from '@platform/errors';

/** A unique-key violation of the store (MongoDB's E11000, or FerretDB's on an update): see isUniqueKeyViolation. */
export function isDuplicateKeyError(error: unknown): boolean {
  return isUniqueKeyViolation(error);
}
