import { NotFoundError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { ChallengedError, ErrorBody, success } from '../api/schemas.js';
import type { GatewayDeps } from '../deps.js';

const Me = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
  timeZone: Type.String(),
  weekStart: Type.String(),
  timeFormat: Type.Integer(),
  organizationId: Type.Union([Type.Integer(), Type.Null()]),
});

/** GET /v2/me: works with any valid access token, whatever its scopes; the authorizing user's profile. */
export function meRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/v2/me',
    {
      onRequest: deps.bearer.authenticate,
      schema: {
        summary: 'The authorizing user',
        tags: ['users'],
        security: [{ bearer: [] }],
        response: { 200: success(Me), 401: ChallengedError, 404: ErrorBody },
      },
    },
    async (request) => {
      const user = await deps.users.get(request.oauth!.sub);
      if (!user) throw new NotFoundError('user_not_found', 'The user who authorized this token no longer exists.');
      return {
        status: 'success' as const,
        data: {
          id: user._id,
          email: user.email,
          name: user.name,
          username: user.username,
          timeZone: user.time_zone,
          weekStart: 'Monday',
          timeFormat: 24,
          organizationId: null,
        },
      };
    },
  );
}
