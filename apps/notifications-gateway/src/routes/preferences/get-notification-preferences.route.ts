import { Type, ref, type HttpApp } from '@platform/http';
import { preferenceJson } from '@platform/notifications';
import type { GatewayDeps } from '../../deps.js';
import { NotificationPreference, errorResponses, security } from '../../schemas.js';
import { UserParams } from './schemas.js';
import { targetUser } from './target-user.js';

export function getNotificationPreferencesRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/api/v2/users/:user/notifications/preferences',
    {
      schema: {
        summary: "A user's notification preferences",
        description: 'The templates the user has disabled or enabled; a member sees only their own.',
        tags: ['preferences'],
        security,
        params: UserParams,
        response: { 200: Type.Array(ref(NotificationPreference)), ...errorResponses },
      },
    },
    async (request) => {
      const user = await targetUser(deps, request.caller!, request.params.user);
      return (await deps.store.preferences.list(user.environment_id, user._id)).map(preferenceJson);
    },
  );
}
