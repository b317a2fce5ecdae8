import { MessageTypeNames } from '@platform/contracts';
import { NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { outboxEvent } from '@platform/mongo';
import { inboxNotificationJson, laneOf, type ReadStatusReply } from '@platform/notifications';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

/** Only the caller's own notification: someone else's is as unknown as one that does not exist. */
export async function setReadStatus(
  deps: HandlerDeps,
  message: IncomingMessage<N['SetInboxNotificationReadStatus']>,
): Promise<ReadStatusReply> {
  const v = message.value;
  const notFound = () => new NotFoundError('notification_not_found', 'Notification not found.');
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await deps.store.inbox.get(v.deployment_id, v.user_id, v.notification_id);
    if (!doc) throw notFound();
    if (v.is_read === (doc.read_at !== null)) {
      return {
        notification: inboxNotificationJson(doc),
        unread_count: await deps.store.inbox.unreadCount(v.deployment_id, v.user_id),
      };
    }
    const readAt = v.is_read ? new Date(v.requested_at) : null;
    const delta = v.is_read ? -1 : 1;
    // Compare-and-set on what was read: a concurrent change makes this one look again.
    const changed = await deps.writer.unread.counted(laneOf(v.deployment_id, v.user_id), async (before) => {
      const event = outboxEvent(MessageTypeNames.InboxNotificationReadStatusChanged, v.user_id, {
        deployment_id: v.deployment_id,
        user_id: v.user_id,
        notification_id: doc._id,
        read_at: readAt ? readAt.getTime() : null,
        unread_count: Math.max(0, (await before()) + delta),
        occurred_at: Date.now(),
      });
      const done = await deps.writer.inbox.change({ _id: doc._id, read_at: doc.read_at }, { read_at: readAt }, [event]);
      return { result: done, delta: done ? delta : 0 };
    });
    if (changed) {
      return {
        notification: inboxNotificationJson({ ...doc, read_at: readAt }),
        unread_count: await deps.store.inbox.unreadCount(v.deployment_id, v.user_id),
      };
    }
  }
  throw new Error('the notification kept changing while its read status was set');
}

export async function markAllRead(
  deps: HandlerDeps,
  message: IncomingMessage<N['MarkAllInboxNotificationsRead']>,
): Promise<{ marked: number }> {
  const v = message.value;
  // read_at is the request's time, so a redelivered command marks nothing new after it.
  const readAt = new Date(v.requested_at);
  const marked = await deps.writer.unread.counted(laneOf(v.deployment_id, v.user_id), async () => {
    const count = await deps.writer.inbox.markAllRead(v.deployment_id, v.user_id, readAt);
    return { result: count, delta: -count };
  });
  if (marked > 0) {
    const event = outboxEvent(MessageTypeNames.InboxNotificationsMarkedRead, v.user_id, {
      deployment_id: v.deployment_id,
      user_id: v.user_id,
      read_at: readAt.getTime(),
      marked,
      occurred_at: Date.now(),
    });
    await deps.writer.readMarks.record(v.deployment_id, v.user_id, readAt, [event]);
  }
  return { marked };
}
