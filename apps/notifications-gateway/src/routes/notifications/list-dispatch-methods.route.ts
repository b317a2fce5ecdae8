import { Type, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

export function listDispatchMethodsRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/api/v2/notifications/dispatch-methods',
    {
      schema: {
        summary: 'The dispatch methods',
        description: 'An array of one object, as the spec shows (Coder’s SDK reads the object alone).',
        tags: ['notifications'],
        security,
        response: {
          200: Type.Array(Type.Object({ available: Type.Array(Type.String()), default: Type.String() })),
          ...errorResponses,
        },
      },
    },
    async () => [{ available: [...deps.methods], default: deps.methods[0] ?? '' }],
  );
}
