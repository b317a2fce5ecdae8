import { MessageTypeNames } from '@platform/contracts';
import { NoContent, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

export function markAllInboxNotificationsReadRoute(app: HttpApp, deps: GatewayDeps) {
  app.put(
    '/api/v2/notifications/inbox/mark-all-as-read',
    {
      schema: {
        summary: 'Mark every notification read',
        tags: ['inbox'],
        security,
        response: { 204: NoContent('Every notification created so far is read.'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      await deps.commands.send(MessageTypeNames.MarkAllInboxNotificationsRead, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
      });
      return reply.code(204).send();
    },
  );
}
