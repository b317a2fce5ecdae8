import { MessageTypeNames } from '@platform/contracts';
import { NotAllowedError } from '@platform/errors';
import { NoContent, ref, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { NotificationSettings, errorResponses, security } from '../../schemas.js';

export function updateNotificationSettingsRoute(app: HttpApp, deps: GatewayDeps) {
  app.put(
    '/api/v2/notifications/settings',
    {
      schema: {
        summary: 'Pause or resume the notifier (owners)',
        description: 'As Coder: a request that changes nothing is 304, whoever sends it.',
        tags: ['settings'],
        security,
        body: ref(NotificationSettings),
        response: {
          200: ref(NotificationSettings),
          304: NoContent('Nothing changed.'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const paused = request.body.notifier_paused;
      if ((await deps.store.settings.get(caller.environment_id)).notifier_paused === paused)
        return reply.code(304).send();
      if (caller.role !== 'owner') throw new NotAllowedError('forbidden', 'Forbidden.');
      const result = await deps.commands.send(MessageTypeNames.UpdateNotificationSettings, caller.environment_id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
        notifier_paused: paused,
      });
      if (!result.changed) return reply.code(304).send();
      return { notifier_paused: result.notifier_paused };
    },
  );
}
