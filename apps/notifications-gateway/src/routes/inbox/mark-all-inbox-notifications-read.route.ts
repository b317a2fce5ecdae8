import { MessageTypeNames } from '@platform/contracts';
import { NoContent, Type, type HttpApp } from '@platform/http';
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
        // No parameters, and unknown ones refused as the list and the watch refuse them.
        querystring: Type.Object({}, { additionalProperties: false }),
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
