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
import { describeIssue, type SchemaIssue } from './schema-messages.js';

/** Where a validation failure was found, as the error code names it. */
const CODES: Record<string, string> = {
  body: 'validation_failed',
  querystring: 'invalid_query',
  params: 'invalid_params',
  headers: 'invalid_headers',
};

/**
 * Schema validation issues (Ajv's) as the one input error every API renders: one issue per field at fault,
 * in words a client can show (the schema's own `errorMessage` where it has one), never Ajv's raw text.
 */
export function validationError(validation: readonly SchemaIssue[], context: string): PlatformError {
  const issues: FieldIssue[] = describeIssues(validation, context);
  return new InputError(CODES[context] ?? 'validation_failed', issues.map((i) => i.message).join('; '), { issues });
}

function describeIssues(validation: readonly SchemaIssue[], context: string): FieldIssue[] {
  // A union (or a rule on member names) reports what failed inside it, then itself: keep its own issue alone.
  const wholes = validation
    .filter((v) => ['anyOf', 'oneOf', 'propertyNames'].includes(v.keyword))
    .map((v) => `${v.schemaPath}/`);
  const kept = validation.filter((v) => !wholes.some((w) => v.schemaPath.startsWith(w)));
  const seen = new Set<string>();
  const issues: FieldIssue[] = [];
  for (const v of kept) {
    const issue = describeIssue(v, context);
    const key = `${issue.field}\n${issue.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues.length > 0 ? issues : [{ field: context, code: 'invalid', message: `${context} is invalid` }];
}

/** Fastify's own errors (schema validation, body parsing, limits) become domain errors before rendering. */
export function fromFastifyError(error: unknown): PlatformError {
  if (isPlatformError(error)) return error;
  const e = error as FastifyError;
  if (e.validation) return validationError(e.validation as SchemaIssue[], e.validationContext ?? 'body');
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
