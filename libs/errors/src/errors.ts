/**
 * Domain errors know nothing of HTTP or Kafka. Each carries a stable `code`, a `kind` that the edges
 * map (HTTP status per API, retry or reject in workers), a `retriable` flag and an optional `cause`.
 */
export type ErrorKind =
  | 'input'
  | 'unauthenticated'
  | 'not_allowed'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'conflict'
  | 'unprocessable'
  | 'too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'deadline'
  | 'internal';

export interface FieldIssue {
  field: string;
  code: string;
  message: string;
}

export interface SerializedError {
  kind: ErrorKind;
  code: string;
  message: string;
  retriable: boolean;
  issues?: FieldIssue[];
  retryAfterSeconds?: number;
}

interface ErrorOptions {
  cause?: unknown;
  issues?: FieldIssue[];
  retryAfterSeconds?: number;
}

export abstract class PlatformError extends Error {
  abstract readonly kind: ErrorKind;
  readonly retriable: boolean = false;
  readonly issues: FieldIssue[];
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: string,
    message: string,
    options: ErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.issues = options.issues ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export class InputError extends PlatformError {
  readonly kind = 'input';
}
export class UnauthenticatedError extends PlatformError {
  readonly kind = 'unauthenticated';
}
export class NotAllowedError extends PlatformError {
  readonly kind = 'not_allowed';
}
export class NotFoundError extends PlatformError {
  readonly kind = 'not_found';
}
/** A known path asked with a method it does not serve; `allowed` are the methods it does. */
export class MethodNotAllowedError extends PlatformError {
  readonly kind = 'method_not_allowed';
  readonly allowed: readonly string[];
  constructor(code: string, message: string, options: ErrorOptions & { allowed?: readonly string[] } = {}) {
    super(code, message, options);
    this.allowed = options.allowed ?? [];
  }
}
/** No representation the request's Accept header takes can be given (406). */
export class NotAcceptableError extends PlatformError {
  readonly kind = 'not_acceptable';
}
export class ConflictError extends PlatformError {
  readonly kind = 'conflict';
}
/** Well-formed, but it cannot be carried out as asked (422): an Idempotency-Key reused with another body. */
export class UnprocessableError extends PlatformError {
  readonly kind = 'unprocessable';
}
export class PayloadTooLargeError extends PlatformError {
  readonly kind = 'too_large';
}
export class UnsupportedMediaTypeError extends PlatformError {
  readonly kind = 'unsupported_media_type';
}
export class RateLimitedError extends PlatformError {
  readonly kind = 'rate_limited';
  override readonly retriable = true;
}
export class UnavailableError extends PlatformError {
  readonly kind = 'unavailable';
  override readonly retriable = true;
}
export class DeadlineExceededError extends PlatformError {
  readonly kind = 'deadline';
  override readonly retriable = true;
}
export class InternalError extends PlatformError {
  readonly kind = 'internal';
}

const byKind: Record<ErrorKind, new (code: string, message: string, options?: ErrorOptions) => PlatformError> = {
  input: InputError,
  unauthenticated: UnauthenticatedError,
  not_allowed: NotAllowedError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  not_acceptable: NotAcceptableError,
  conflict: ConflictError,
  unprocessable: UnprocessableError,
  too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  rate_limited: RateLimitedError,
  unavailable: UnavailableError,
  deadline: DeadlineExceededError,
  internal: InternalError,
};

export function isPlatformError(error: unknown): error is PlatformError {
  return error instanceof PlatformError;
}

/** Anything thrown that is not a domain error becomes an internal error whose message hides the details. */
/**
 * The MongoDB driver's names for a store it could not reach or that dropped the connection mid-operation: the
 * request was sound and may be tried again, so these are 503 with Retry-After, not 500. Matched by name, as
 * this library depends on no driver.
 */
const STORE_CONNECTION_ERRORS = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
]);

export function toPlatformError(error: unknown): PlatformError {
  if (isPlatformError(error)) return error;
  if (isUniqueKeyViolation(error))
    return new ConflictError('duplicate_key', 'Another record already has this unique value.', { cause: error });
  if (error instanceof Error && STORE_CONNECTION_ERRORS.has(error.name))
    return new UnavailableError('store_unavailable', 'The store is briefly unavailable; try again.', {
      cause: error,
      retryAfterSeconds: 1,
    });
  if (error instanceof Error && isRedisOutage(error))
    return new UnavailableError('cache_unavailable', 'The cache is briefly unavailable; try again.', {
      cause: error,
      retryAfterSeconds: 1,
    });
  return new InternalError('internal_error', 'An internal error occurred.', { cause: error });
}

/**
 * A store's unique-key violation: MongoDB's E11000 (code 11000), or the PostgreSQL unique violation (SQLSTATE
 * 23505) that FerretDB passes on, with code 1, when an update makes two documents collide. The request is at
 * fault and a retry cannot succeed, so it is a conflict (409), answered at once; never a retry or a dead letter.
 */
export function isUniqueKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { code?: unknown }).code === 11000) return true;
  const message = (error as { message?: unknown }).message;
  return (
    typeof message === 'string' && (message.includes('SQLSTATE 23505') || message.includes('E11000 duplicate key'))
  );
}

/**
 * ioredis's failures of a Redis it cannot reach: a command that ran out of reconnection attempts, timed out, or
 * met a closed connection. Matched by name and message, as this library depends on no client.
 */
function isRedisOutage(error: Error): boolean {
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    error.message === 'Command timed out' ||
    error.message === 'Connection is closed.'
  );
}

export function serializeError(error: PlatformError): SerializedError {
  const out: SerializedError = {
    kind: error.kind,
    code: error.code,
    message: error.message,
    retriable: error.retriable,
  };
  if (error.issues.length > 0) out.issues = error.issues;
  if (error.retryAfterSeconds !== undefined) out.retryAfterSeconds = error.retryAfterSeconds;
  return out;
}

export function deserializeError(data: SerializedError): PlatformError {
  const Ctor = byKind[data.kind] ?? InternalError;
  const options: ErrorOptions = {};
  if (data.issues) options.issues = data.issues;
  if (data.retryAfterSeconds !== undefined) options.retryAfterSeconds = data.retryAfterSeconds;
  return new Ctor(data.code, data.message, options);
}
