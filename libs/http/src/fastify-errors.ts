import type { FastifyError } from 'fastify';
import {
  InputError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  isPlatformError,
  toPlatformError,
  type FieldIssue,
  type PlatformError,
} from '@platform/errors';

interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params: unknown;
  message?: string | undefined;
}

/** Schema validation issues (Ajv's) as the one input error every API renders, naming each field at fault. */
export function validationError(validation: readonly SchemaIssue[], context: string): PlatformError {
  const issues: FieldIssue[] = validation.map((v) => {
    const params = v.params as Record<string, unknown>;
    const missing = typeof params['missingProperty'] === 'string' ? params['missingProperty'] : undefined;
    const extra = typeof params['additionalProperty'] === 'string' ? params['additionalProperty'] : undefined;
    const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = [path, missing ?? extra].filter(Boolean).join('.') || context;
    const code = missing ? `${field}_required` : extra ? 'unknown_field' : `invalid_${v.keyword}`;
    const message = missing
      ? `${field} is required`
      : extra
        ? `${field} is not a known field`
        : `${field} ${v.message ?? 'is invalid'}`;
    return { field, code, message };
  });
  return new InputError('validation_failed', issues.map((i) => i.message).join('; '), { issues });
}

/** Fastify's own errors (schema validation, body parsing, limits) become domain errors before rendering. */
export function fromFastifyError(error: unknown): PlatformError {
  if (isPlatformError(error)) return error;
  const e = error as FastifyError;
  if (e.validation) return validationError(e.validation, e.validationContext ?? 'body');
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError('payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError('unsupported_media_type', 'Unsupported Content-Type.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new InputError('invalid_json', 'The request body is not valid JSON.');
    case 'FST_ERR_NOT_FOUND':
      return new NotFoundError('route_not_found', 'Not Found');
  }
  if (e instanceof SyntaxError || e.statusCode === 400) {
    return new InputError('invalid_json', 'The request body is not valid JSON.');
  }
  if (e.statusCode === 413) return new PayloadTooLargeError('payload_too_large', 'The request body is too large.');
  if (e.statusCode === 415) return new UnsupportedMediaTypeError('unsupported_media_type', 'Unsupported Content-Type.');
  return toPlatformError(error);
}
