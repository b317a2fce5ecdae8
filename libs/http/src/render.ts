import type { FastifyRequest } from 'fastify';
import type { PlatformError } from '@platform/errors';

export interface RenderedError {
  statusCode: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Each API renders the one error model in the exact shape its spec gives. */
export type ErrorRenderer = (error: PlatformError, request: FastifyRequest) => RenderedError;
