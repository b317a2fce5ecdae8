export {
  PlatformError,
  InputError,
  UnauthenticatedError,
  NotAllowedError,
  NotFoundError,
  MethodNotAllowedError,
  NotAcceptableError,
  ConflictError,
  UnprocessableError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  RateLimitedError,
  UnavailableError,
  DeadlineExceededError,
  InternalError,
  isPlatformError,
  toPlatformError,
  isUniqueKeyViolation,
  serializeError,
  deserializeError,
} from './errors.js';
export type { ErrorKind, FieldIssue, SerializedError } from './errors.js';
export { withDeadline } from './deadline.js';
