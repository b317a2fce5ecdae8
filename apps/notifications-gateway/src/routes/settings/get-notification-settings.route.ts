import { ref, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { NotificationSettings, errorResponses, security } from '../../schemas.js';

export function getNotificationSettingsRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/api/v2/notifications/settings',
    {
      schema: {
        summary: 'The notification settings',
        tags: ['settings'],
        security,
        response: { 200: ref(NotificationSettings), ...errorResponses },
      },
    },
    async (request) => deps.store.settings.get(request.caller!.environment_id),
  );
}
