import { aggregateWriter, changeWithEvents, type StoredOutboxEntry } from '@platform/mongo';
import { INBOX_PAGE_SIZE, type InboxFilter } from '../inbox-query.js';
import { laneOf, userOfLane, type InboxDoc, type NotificationsModels } from '../models.js';
import { createUnreadCounter, readUnread } from '../unread.js';

function inboxFilter(deploymentId: string, userId: string, filter: InboxFilter): Record<string, unknown> {
  const query: Record<string, unknown> = { deployment_id: deploymentId, user_id: userId };
  if (filter.templates.length > 0) query['template_id'] = { $in: filter.templates };
  if (filter.targets.length > 0) query['targets'] = { $all: filter.targets };
  if (filter.readStatus === 'read') query['read_at'] = { $ne: null };
  if (filter.readStatus === 'unread') query['read_at'] = null;
  return query;
}

/** A user's inbox, its unread count and its read marks: every method takes the deployment and the user first. */
export function inboxRepository(models: NotificationsModels) {
  const { Inbox, ReadMark, Unread } = models;
  /** Counts a user's unread notifications in the inbox itself (what the stored count stands for). */
  const countUnread = (lane: string) => Inbox.countDocuments({ ...userOfLane(lane), read_at: null }).exec();
  const inbox = aggregateWriter<InboxDoc>(Inbox);
  return {
    /** The user's unread count: the stored one when it is good (one `_id` read), else the inbox counted. */
    unreadCount(deploymentId: string, userId: string): Promise<number> {
      const lane = laneOf(deploymentId, userId);
      return readUnread(Unread, lane, () => countUnread(lane));
    },
    async get(deploymentId: string, userId: string, id: string): Promise<InboxDoc | null> {
      return Inbox.findOne({ _id: id, deployment_id: deploymentId, user_id: userId }).lean<InboxDoc>();
    },
    /** Whether the notification is the user's own (a cursor must be: someone else's reads as unknown). */
    async owns(deploymentId: string, userId: string, id: string): Promise<boolean> {
      return (await Inbox.exists({ _id: id, deployment_id: deploymentId, user_id: userId })) !== null;
    },
    /**
     * A page of the inbox, newest first; `startingBefore` (one of the user's own notifications, which the caller
     * has checked) lists only older ones. Ids are UUIDv7, so they order by creation.
     */
    async list(
      deploymentId: string,
      userId: string,
      filter: InboxFilter,
      startingBefore?: string,
    ): Promise<InboxDoc[]> {
      const query = inboxFilter(deploymentId, userId, filter);
      if (startingBefore) query['_id'] = { $lt: startingBefore };
      return Inbox.find(query).sort({ _id: -1 }).limit(INBOX_PAGE_SIZE).lean<InboxDoc[]>();
    },
    /** The notifications after `afterId`, oldest first (a stream's resume), at most `limit`. */
    async after(
      deploymentId: string,
      userId: string,
      filter: InboxFilter,
      afterId: string,
      limit: number,
    ): Promise<InboxDoc[]> {
      const query = { ...inboxFilter(deploymentId, userId, filter), _id: { $gt: afterId } };
      return Inbox.find(query).sort({ _id: 1 }).limit(limit).lean<InboxDoc[]>();
    },
    /** The writes (the notifier's, through the writer), each with the events that report it. */
    writes: {
      source: inbox.source,
      /** Inserts an inbox notification once; false when it is there already (a method redone after a crash). */
      insertOnce: (doc: Omit<InboxDoc, 'outbox' | 'has_outbox'>, events: StoredOutboxEntry[]) =>
        inbox.insertOnce(doc, events),
      /** A compare-and-set on one notification (the filter names it), with its events. */
      change: inbox.change,
      /** Marks every unread notification of the user created up to `readAt` read; returns how many. */
      async markAllRead(deploymentId: string, userId: string, readAt: Date): Promise<number> {
        const result = await Inbox.updateMany(
          { deployment_id: deploymentId, user_id: userId, read_at: null, created_at: { $lte: readAt } },
          { $set: { read_at: readAt } },
        );
        return result.modifiedCount;
      },
    },
    /** The stored unread count: every change of the inbox that may move it goes between `begin` and `end`. */
    unreadCounter: createUnreadCounter(Unread, countUnread),
    readMarkWrites: {
      source: ReadMark.collection.collectionName,
      /** Records the user's mark-all-as-read with its events (one document per user); returns its `_id`. */
      async record(deploymentId: string, userId: string, readAt: Date, events: StoredOutboxEntry[]): Promise<string> {
        const _id = laneOf(deploymentId, userId);
        await ReadMark.updateOne({ _id }, changeWithEvents({ read_at: readAt }, events), { upsert: true });
        return _id;
      },
    },
  };
}
