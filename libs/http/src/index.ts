export { bodyChecker, createHttpApp, deferredBodyValidation } from './create-app.js';
export { startHealthServer } from './health-server.js';
export type { HttpApp, HttpAppOptions, ReadinessCheck } from './create-app.js';
export { defaultStatusFor } from './status.js';
export { frameworkStatuses } from './framework-statuses.js';
export type { ErrorRenderer, RenderedError } from './render.js';
export { Type } from '@sinclair/typebox';
export type { Static, TSchema } from '@sinclair/typebox';
export type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
