import { MessageTypeNames } from '@platform/contracts';
import { outboxEvent } from '@platform/mongo';
import { laneOf, type NotificationsWriter, type OutgoingDoc, type UnreadChange } from '@platform/notifications';

/**
 * Puts the notification in the inbox under its notification id, with the event the watch streams follow. A
 * second try (after a crash between this and recording it sent) finds it there and adds nothing. The stored
 * unread count is changed around the insert (`hints.unread`: begun by the dispatcher with its other reads).
 */
export function createInboxMethod(deps: { writer: NotificationsWriter }) {
  return async (doc: OutgoingDoc, hints: { unread?: UnreadChange } = {}): Promise<'sent'> => {
    await deps.writer.unread.counted(
      laneOf(doc.deployment_id, doc.user_id),
      async (before) => {
        const inserted = await insert(doc, await before());
        return { result: inserted, delta: inserted ? 1 : 0 };
      },
      hints.unread,
    );
    return 'sent';
  };

  async function insert(doc: OutgoingDoc, unreadBefore: number): Promise<boolean> {
    const createdAt = new Date();
    const unread = unreadBefore + 1;
    const event = outboxEvent(MessageTypeNames.InboxNotificationCreated, doc.user_id, {
      deployment_id: doc.deployment_id,
      user_id: doc.user_id,
      notification: {
        id: doc.notification_id,
        template_id: doc.template_id,
        targets: doc.targets,
        title: doc.title,
        content: doc.content,
        icon: doc.icon,
        actions: doc.actions.map((a) => ({ label: a.label, url: a.url })),
        created_at: createdAt.getTime(),
      },
      unread_count: unread,
      occurred_at: createdAt.getTime(),
    });
    const inserted = await deps.writer.inbox.insertOnce(
      {
        _id: doc.notification_id,
        deployment_id: doc.deployment_id,
        user_id: doc.user_id,
        template_id: doc.template_id,
        targets: doc.targets,
        title: doc.title,
        content: doc.content,
        icon: doc.icon,
        actions: doc.actions,
        read_at: null,
        created_at: createdAt,
      },
      [event],
    );
    // The event goes out without the inbox document being read back: the watch streams' latency is round trips.
    return inserted;
  }
}
