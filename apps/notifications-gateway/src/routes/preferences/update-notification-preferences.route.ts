import { MessageTypeNames } from '@platform/contracts';
import { Type, ref, type HttpApp } from '@platform/http';
import { TEMPLATES } from '@platform/notifications';
import type { GatewayDeps } from '../../deps.js';
import { NotificationPreference, errorResponses, security } from '../../schemas.js';
import { UserParams } from './schemas.js';
import { targetUser } from './target-user.js';

/** The templates' ids, in any letter case (Coder parses them as UUIDs). */
const TEMPLATE_ID = `^(?:${TEMPLATES.map((t) => [...t.id].map((c) => (/[a-f]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('')).join('|')})$`;

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
          template_disabled_map: Type.Record(Type.String(), Type.Boolean(), {
            // propertyNames, not patternProperties: the OpenAPI document keeps it (the swagger plugin folds
            // patternProperties into additionalProperties).
            propertyNames: { pattern: TEMPLATE_ID },
            maxProperties: 200,
            description: 'Template ids to true (disabled) or false (enabled).',
            errorMessage: { propertyNames: 'may only have notification template ids as keys.' },
          }),
        }),
        response: { 200: Type.Array(ref(NotificationPreference)), ...errorResponses },
      },
    },
    async (request) => {
      const user = await targetUser(deps, request.caller!, request.params.user);
      const map = request.body.template_disabled_map;
      const changes = Object.fromEntries(Object.entries(map).map(([id, disabled]) => [id.toLowerCase(), disabled]));
      return deps.commands.send(MessageTypeNames.UpdateNotificationPreferences, user._id, {
        deployment_id: user.environment_id,
        user_id: user._id,
        template_disabled_map: changes,
      });
    },
  );
}
