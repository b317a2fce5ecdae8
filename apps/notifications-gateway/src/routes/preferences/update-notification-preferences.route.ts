import { MessageTypeNames } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { Type, ref, type HttpApp } from '@platform/http';
import { TEMPLATES } from '@platform/notifications';
import type { GatewayDeps } from '../../deps.js';
import { NotificationPreference, errorResponses, security } from '../../schemas.js';
import { UserParams } from './schemas.js';
import { targetUser } from './target-user.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Coder's words for a key that is not a UUID, or not a template's. */
function templateIssues(map: Record<string, boolean>) {
  return Object.keys(map).flatMap((id) => {
    const field = `template_disabled_map.${id}`;
    if (!UUID.test(id)) return [{ field, code: 'invalid', message: 'Unable to parse notification template UUID.' }];
    if (!TEMPLATES.some((t) => t.id === id.toLowerCase()))
      return [{ field, code: 'invalid', message: 'There is no notification template with this id.' }];
    return [];
  });
}

export function updateNotificationPreferencesRoute(app: HttpApp, deps: GatewayDeps) {
  app.put(
    '/api/v2/users/:user/notifications/preferences',
    {
      schema: {
        summary: 'Disable or enable templates for a user',
        tags: ['preferences'],
        security,
        params: UserParams,
        body: Type.Object({
          template_disabled_map: Type.Record(Type.String({ maxLength: 64 }), Type.Boolean(), {
            maxProperties: 200,
            description: 'Template ids to true (disabled) or false (enabled).',
          }),
        }),
        response: { 200: Type.Array(ref(NotificationPreference)), ...errorResponses },
      },
    },
    async (request) => {
      const user = await targetUser(deps, request.caller!, request.params.user);
      const map = request.body.template_disabled_map;
      const issues = templateIssues(map);
      if (issues.length > 0) throw new InputError('validation_failed', 'Invalid request body', { issues });
      const changes = Object.fromEntries(Object.entries(map).map(([id, disabled]) => [id.toLowerCase(), disabled]));
      return deps.commands.send(MessageTypeNames.UpdateNotificationPreferences, user._id, {
        deployment_id: user.environment_id,
        user_id: user._id,
        template_disabled_map: changes,
      });
    },
  );
}
