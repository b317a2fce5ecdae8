import { MessageTypeNames } from '@platform/contracts';
import type { Touched } from '@platform/kafka';
import { outboxEvent } from '@platform/mongo';
import { laneOf, type NotificationsStore, type NotificationsWriter, type OutgoingDoc, type UnreadChange } from '@platform/notifications';

/**
 * Puts the notification in the inbox under its notification id, with the event the watch streams follow. A
 * second try (after a crash between this and recording it sent) finds it there and adds nothing. The stored
 * unread count is changed around the insert (`hints.unread`: begun by the dispatcher with its other reads).
 */
export function createInboxMethod(deps: { store: NotificationsStore; writer: NotificationsWriter; touched: Touched }) {
  return async (doc: OutgoingDoc, hints: { unread?: UnreadChange } = {}): Promise<'sent'> => {
    const lane = laneOf(doc.deployment_id, doc.user_id);
    const change = hints.unread ?? (await deps.writer.unread.begin(lane));
    let inserted: boolean;
    try {
      inserted = await insert(doc, change.before ?? (await deps.store.unreadCount(doc.deployment_id, doc.user_id)));
    } catch (error) {
      await deps.writer.unread.end(lane, change.token, null).catch(() => undefined);
      throw error;
    }
    await deps.writer.unread.end(lane, change.token, inserted ? 1 : 0);
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
    const inserted = await deps.writer.insertInbox(
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
    if (inserted) deps.touched(deps.writer.inbox.source, doc.notification_id, [event]);
    return inserted;
  }
}
