import type { HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { User } from './schemas.js';
import { userJson } from './user.js';

export function getUserRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/user',
    {
      schema: {
        summary: 'The user of the token',
        tags: ['user'],
        security,
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => userJson(deps, request.caller!),
  );
}
