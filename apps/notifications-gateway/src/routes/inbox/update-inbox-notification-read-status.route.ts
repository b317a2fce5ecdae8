import { MessageTypeNames } from '@platform/contracts';
import { Type, ref, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { InboxNotification, NotificationIdParams, errorResponses, security } from '../../schemas.js';

export function updateInboxNotificationReadStatusRoute(app: HttpApp, deps: GatewayDeps) {
  app.put(
    '/api/v2/notifications/inbox/:id/read-status',
    {
      schema: {
        summary: 'Mark one notification read or unread',
        description: 'Only the caller’s own notifications: another user’s id is 404.',
        tags: ['inbox'],
        security,
        params: NotificationIdParams,
        body: Type.Object({ is_read: Type.Boolean() }),
        response: {
          200: Type.Object({
            message: Type.String(),
            notification: ref(InboxNotification),
            unread_count: Type.Integer(),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const { is_read } = request.body;
      const result = await deps.commands.send(MessageTypeNames.SetInboxNotificationReadStatus, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
        notification_id: request.params.id.toLowerCase(),
        is_read,
      });
      return { message: is_read ? 'Notification marked as read.' : 'Notification marked as unread.', ...result };
    },
  );
}
