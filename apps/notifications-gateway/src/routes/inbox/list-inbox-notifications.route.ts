import { Type, ref, type HttpApp } from '@platform/http';
import { inboxNotificationJson, readInboxListQuery } from '@platform/notifications';
import { requireOwnCursor } from '../../cursor.js';
import type { GatewayDeps } from '../../deps.js';
import { refuseListsOverLimit } from '../../inbox-query.js';
import { InboxFilterQuery, InboxNotification, UuidParam, errorResponses, security } from '../../schemas.js';

export function listInboxNotificationsRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/api/v2/notifications/inbox',
    {
      schema: {
        summary: 'List inbox notifications, newest first',
        description:
          'At most 25 a page; page back with `starting_before` (the oldest id of the page; one that is not the caller’s own notification is 404).',
        tags: ['inbox'],
        security,
        querystring: Type.Object(
          { ...InboxFilterQuery, starting_before: Type.Optional(UuidParam) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ notifications: Type.Array(ref(InboxNotification)), unread_count: Type.Integer() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const caller = request.caller!;
      refuseListsOverLimit(request.query);
      const query = readInboxListQuery(request.query);
      const cursor = query.startingBefore ?? undefined;
      if (cursor) await requireOwnCursor(deps, caller, 'starting_before', cursor);
      const [docs, unread] = await Promise.all([
        deps.store.inbox.list(caller.environment_id, caller._id, query, cursor),
        deps.store.inbox.unreadCount(caller.environment_id, caller._id),
      ]);
      return { notifications: docs.map(inboxNotificationJson), unread_count: unread };
    },
  );
}
