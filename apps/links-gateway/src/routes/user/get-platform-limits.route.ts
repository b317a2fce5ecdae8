import { Type, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

const PlatformLimits = Type.Object({
  platform_limits: Type.Array(
    Type.Object({
      endpoint: Type.String({ description: 'Such as /v4/groups/{group_guid}/shortlinks.' }),
      methods: Type.Array(Type.Object({ name: Type.String(), limit: Type.Integer(), count: Type.Integer() })),
    }),
  ),
});

export function getPlatformLimitsRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/user/platform_limits',
    {
      schema: {
        summary: "The organization's hourly limit and this hour's count per endpoint and method",
        tags: ['user'],
        security,
        querystring: Type.Object({
          path: Type.Optional(
            Type.String({
              maxLength: 300,
              pattern: '^/',
              description: 'One endpoint, as a template or a concrete path.',
              errorMessage: 'is an API path such as /v4/shorten',
            }),
          ),
        }),
        response: { 200: PlatformLimits, ...errorResponses },
      },
    },
    async (request) => ({
      platform_limits: await deps.platformLimits.report(request.caller!.environment_id, request.query.path),
    }),
  );
}
