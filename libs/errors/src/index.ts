export {
  PlatformError,
  InputError,
  UnauthenticatedError,
  NotAllowedError,
  NotFoundError,
  ConflictError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  RateLimitedError,
  UnavailableError,
  DeadlineExceededError,
  InternalError,
  isPlatformError,
  toPlatformError,
  serializeError,
  deserializeError,
} from './errors.js';
export type { ErrorKind, FieldIssue, SerializedError } from './errors.js';
