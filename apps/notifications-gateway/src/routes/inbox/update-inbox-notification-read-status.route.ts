import { MessageTypeNames } from '@platform/contracts';
import { OPTIONAL_BODY, Type, ref, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { InboxNotification, NotificationIdParams, errorResponses, security } from '../../schemas.js';

export function updateInboxNotificationReadStatusRoute(app: HttpApp, deps: GatewayDeps) {
  app.put(
    '/api/v2/notifications/inbox/:id/read-status',
    {
      schema: {
        summary: 'Mark one notification read or unread',
        description:
          'Only the caller’s own notifications: another user’s id is 404. The spec defines no body: without one (or without `is_read`) the notification is marked read.',
        tags: ['inbox'],
        security,
        params: NotificationIdParams,
        body: Type.Object({ is_read: Type.Optional(Type.Boolean({ description: 'Default: true.' })) }),
        [OPTIONAL_BODY]: true,
        response: {
          200: Type.Object({
            message: Type.String(),
            notification: ref(InboxNotification),
            unread_count: Type.Integer(),
          }),
          ...errorResponses,
        },
      },
      // An absent body is `{}`: set before validation, which would refuse `undefined`.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
    async (request) => {
      const caller = request.caller!;
      const is_read = request.body.is_read ?? true;
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
